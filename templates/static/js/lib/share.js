// One click copies a share text to the clipboard (selecting it where the clipboard is refused).

import { copyField } from "./dom.js";
import { t } from "./i18n.js";

export function copyOnClick(button, textarea, done) {
  button.onclick = async () => {
    done.textContent = t((await copyField(textarea)) ? "share.copied" : "share.selectHint");
  };
}
