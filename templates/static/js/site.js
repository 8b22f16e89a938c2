// What every page does first (base.html): the player's settings drawn (deck colours, card
// size, contrast; the account's when signed in) and the service worker registered.

import { registerWorker } from "./lib/offline.js";
import { apply, syncAccount } from "./lib/settings.js";

apply();
syncAccount();
registerWorker();
