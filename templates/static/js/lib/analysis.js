// A finished attempt's analysis on its end screen (docs/ANALYSIS.md): the player's marked
// decisions (the move played, the analyst's better one and what it cost in expected points) and
// the expected score over the round, asked for again while the worker computes it (202).

import { analysis } from "./api.js";
import { barChart } from "./chart.js";
import { clear, h, sleep } from "./dom.js";
import { t } from "./i18n.js";

const PAUSE_MS = [1000, 1000, 2000, 2000, 3000, 5000, 8000];
const POLL_LIMIT = 60; // about seven minutes

// An exact number as the engine writes it ("495/8", "-12", "0") as a float for the page.
export function exact(text) {
  const [top, bottom = "1"] = String(text).split("/");
  return Number(top) / Number(bottom);
}

const rounded = (text) => Math.round(exact(text) * 10) / 10;

function decisionItem(d) {
  return h("li", { class: `analysis-decision ${d.mark}` },
    h("strong", { text: t(`analysis.mark.${d.mark}`) }), " ",
    h("span", { text: t("analysis.turn", { n: d.turn }) }), ": ",
    h("span", { text: t("analysis.played", { move: d.played }) }), " · ",
    h("span", { text: t("analysis.better", { move: d.best }) }), " · ",
    h("span", { class: "analysis-cost", text: t("analysis.cost", { cost: rounded(d.cost) }) }));
}

function render(root, doc) {
  const marked = (doc.decisions || []).filter((d) => d.mark);
  const s = doc.summary || {};
  root.append(
    h("p", { class: "analysis-summary", text: t("analysis.summary", {
      matching: s.matching ?? 0, decisions: s.decisions ?? 0,
    }) }),
    barChart((doc.graph || []).map((p) => ({
      label: t("analysis.turn", { n: p.turn }), value: rounded(p.expected),
    })), { title: t("analysis.graph") }),
    marked.length
      ? h("ol", { class: "analysis-decisions" }, ...marked.map(decisionItem))
      : h("p", { text: t("analysis.clean") }));
}

// Show attempt `id`'s analysis in `root`, polling while it is queued; quietly says so when the
// service refuses it (not verified, a practice game) or takes too long.
export async function showAnalysis(root, id) {
  const status = h("p", { class: "analysis-status", role: "status", text: t("analysis.waiting") });
  clear(root).append(h("h3", { text: t("analysis.title") }), status);
  root.hidden = false;
  for (let i = 0; i < POLL_LIMIT; i += 1) {
    let doc;
    try {
      doc = await analysis(id);
    } catch (e) {
      status.textContent = t("analysis.unavailable");
      return;
    }
    if (doc.status !== "queued") {
      status.remove();
      render(root, doc);
      return;
    }
    await sleep(PAUSE_MS[Math.min(i, PAUSE_MS.length - 1)]);
  }
  status.textContent = t("analysis.unavailable");
}
