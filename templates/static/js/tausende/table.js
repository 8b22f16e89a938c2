// A Tausende table's page (tausende/table.html): Pik Dame's table page (RULES.md R12 is a
// ruleset of Pik Dame's engine, played on its board) with Tausende's panel beside the board and
// its opening (R12.3), with which the other seats' moves are played back.

import { openTablePage } from "../pikdame/tablepage.js";
import { OPENING, openingPoints } from "./opening.js";
import { renderTausende } from "./panel.js";

openTablePage({ render: renderTausende, opening: { goal: OPENING, points: openingPoints } });
