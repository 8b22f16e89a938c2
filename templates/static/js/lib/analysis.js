// A finished game's analysis (docs/ANALYSIS.md) on an end screen, a table's round or the replay
// viewer: the player's marked decisions (the move played, the analyst's better one and what it
// cost in expected points) and the expected score over the round, asked for again while the
// worker computes it (202). Where the page can show a position (the replay viewer), each marked
// decision jumps to it ("Zur Stellung").

import { ApiError, analysis } from "./api.js";
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

function decisionItem(d, jump) {
  const item = h("li", { class: `analysis-decision ${d.mark}`, dataset: { move: String(d.move_index) } },
    h("strong", { text: t(`analysis.mark.${d.mark}`) }), " ",
    h("span", { text: t("analysis.turn", { n: d.turn }) }), ": ",
    h("span", { text: t("analysis.played", { move: d.played }) }), " · ",
    h("span", { text: t("analysis.better", { move: d.best }) }), " · ",
    h("span", { class: "analysis-cost", text: t("analysis.cost", { cost: rounded(d.cost) }) }));
  if (jump) {
    item.append(" ", h("button", {
      type: "button", class: "button small analysis-jump", onclick: () => jump(d),
    }, t("analysis.jump")));
  }
  return item;
}

function render(root, doc, jump) {
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
      ? h("ol", { class: "analysis-decisions" }, ...marked.map((d) => decisionItem(d, jump)))
      : h("p", { text: t("analysis.clean") }));
}

// Show an analysis in `root`, polling while it is queued; quietly says so when the service
// refuses it (not verified, a practice game) or takes too long. `id`: a finished attempt's id,
// or the options {load, jump, before}: `load()` asks for the document (e.g. a table's round),
// `jump(decision)` shows a marked decision's position, `before` is put above the document (a
// Gin match's hand buttons). A failed job (503 analysis_failed) is asked for again: it is then
// queued anew.
export async function showAnalysis(root, id) {
  const options = typeof id === "object" ? id : { load: () => analysis(id) };
  const status = h("p", { class: "analysis-status", role: "status", text: t("analysis.waiting") });
  clear(root).append(h("h3", { text: t("analysis.title") }), ...(options.before ? [options.before] : []),
    status);
  root.hidden = false;
  let retried = false;
  for (let i = 0; i < POLL_LIMIT; i += 1) {
    let doc;
    try {
      doc = await options.load();
    } catch (e) {
      if (e instanceof ApiError && e.code === "analysis_failed" && !retried) {
        retried = true;
        continue;
      }
      status.textContent = t("analysis.unavailable");
      return;
    }
    if (doc.status !== "queued") {
      status.remove();
      render(root, doc, options.jump);
      root.dataset.ready = "1";
      return;
    }
    await sleep(PAUSE_MS[Math.min(i, PAUSE_MS.length - 1)]);
  }
  status.textContent = t("analysis.unavailable");
}
