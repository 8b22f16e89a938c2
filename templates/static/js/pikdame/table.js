// A Pik Dame table's page (pikdame/table.html): tablepage.js with nothing added.

import { openTablePage } from "./tablepage.js";

openTablePage();
