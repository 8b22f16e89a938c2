// One click copies a share text to the clipboard (selecting it where the clipboard is refused).

import { t } from "./i18n.js";

export function copyOnClick(button, textarea, done) {
  button.onclick = async () => {
    textarea.select();
    try {
      await navigator.clipboard.writeText(textarea.value);
      done.textContent = t("share.copied");
    } catch (e) {
      done.textContent = t("share.selectHint");
    }
  };
}
