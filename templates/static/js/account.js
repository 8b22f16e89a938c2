// The account page: sign up (name, then a passkey), sign in with a passkey, the account's
// devices, sign out (here or everywhere), delete the account.

import {
  account, addDevice, addDeviceOptions, deleteAccount, removeDevice, signIn, signInOptions,
  signOut, signUp, signUpOptions,
} from "./lib/api.js";
import { $, clear, h } from "./lib/dom.js";
import { explain } from "./lib/explain.js";
import { formatDate, t } from "./lib/i18n.js";
import * as passkeys from "./lib/passkeys.js";

// Where passkeys work: the relying party's own address (service.pages.pages passes it).
const site = document.body.dataset.site || location.origin;

// A device the player did not name keeps the service's default name, "Gerät N"
// (service/accounts/api_accounts.py): shown in the page's language ("Apparaat 1").
const UNNAMED = /^Gerät (\d+)$/;

function deviceLabel(label) {
  const unnamed = UNNAMED.exec(label);
  return unnamed ? t("account.deviceLabel", { n: Number(unnamed[1]) }) : label;
}

function failed(e) {
  if (e && e.name === "SecurityError") {
    // the browser refuses the relying party here (an IP address such as 127.0.0.1, or another
    // host): say where the site is
    $("#account-error").textContent = t("account.securityError", { site });
    return;
  }
  $("#account-error").textContent = e && e.name === "NotAllowedError"
    ? t("account.cancelled") : explain(e);
}

function render(current) {
  $("#account-error").textContent = "";
  $("#signed-out").hidden = current !== null;
  $("#signed-in").hidden = current === null;
  if (current) {
    $("#account-name-title").textContent = current.name;
    const last = current.devices.length === 1;
    clear($("#devices")).append(...current.devices.map((d) => h("li", { dataset: { id: d.id } },
      h("span", { text: `${deviceLabel(d.label)} · ${formatDate(d.created_at.slice(0, 10))}` }), " ",
      last ? null : h("button", {
        type: "button", class: "button small", text: t("account.remove"),
        onclick: () => removeDevice(d.id).then(render, failed),
      }))));
  }
  document.body.dataset.ready = "1";
}

// The account from the API; `known` is false when the session is known to be signed out (the
// page said so, or the player just signed out): nothing is asked that could only answer 401.
async function refresh(known = true) {
  if (!known) {
    render(null);
    return;
  }
  try {
    render(await account());
  } catch (e) {
    if (e.status === 401) render(null);
    else failed(e);
  }
}

async function ceremony(step, signedIn = true) {
  try {
    await step();
    await refresh(signedIn);
  } catch (e) {
    failed(e);
  }
}

$("#signup-form").addEventListener("submit", (event) => {
  event.preventDefault();
  ceremony(async () => {
    const { handle, options } = await signUpOptions($("#account-name").value, $("#attach").checked);
    await signUp(handle, await passkeys.create(options));
  });
});
$("#signin-button").addEventListener("click", () => ceremony(async () => {
  const { handle, options } = await signInOptions();
  await signIn(handle, await passkeys.get(options));
}));
$("#add-device").addEventListener("click", () => ceremony(async () => {
  const { handle, options } = await addDeviceOptions();
  await addDevice(handle, await passkeys.create(options), "");
}));
$("#signout").addEventListener("click", () => ceremony(() => signOut(false), false));
$("#signout-everywhere").addEventListener("click", () => ceremony(() => signOut(true), false));
$("#delete-account").addEventListener("click", () => {
  if (window.confirm(t("account.deleteConfirm"))) ceremony(deleteAccount, false);
});

if (!passkeys.supported()) $("#account-error").textContent = t("account.unsupported");
// opened at another address than the site's (http://127.0.0.1 for http://localhost): passkeys
// will be refused here, so the way to the right address is shown before anyone tries
$("#wrong-address").hidden = new URL(site).origin === location.origin;
refresh(document.body.dataset.signedIn === "1");
