// A finished game's analysis (docs/ANALYSIS.md "The pages") on an end screen, a table's round or
// the replay viewer: every decision that differed from the analyst (the move played and the best
// one in the page's words, what it cost in expected points with its interval, at a table its
// change of the seat's standing against the others, its mark) and the
// expected score over the round, asked for again while the worker computes it (202). Where the
// page can show a position (the replay viewer), each decision jumps to it ("Zur Stellung").

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

// A decision's cost as the page says it: expected points with the 95% interval in the `view`
// mode; in the `deal` mode what the other move would have made in this one deal (luck and
// decision together, so never a mark, issue 40).
function costText(d, deal) {
  if (d.unjudged) return h("span", { class: "analysis-cost", text: t("analysis.unjudged") });
  if (deal) {
    return h("span", { class: "analysis-cost", text: t("analysis.dealCost", { cost: rounded(d.cost) }) });
  }
  const value = rounded(d.cost);
  const cost = h("span", { class: "analysis-cost", text: value < 0
    ? t("analysis.gain", { cost: -value }) : t("analysis.cost", { cost: value }) });
  if (!d.interval) return cost;
  return h("span", {}, cost, " ", h("span", { class: "analysis-interval", text: t("analysis.interval", {
    low: rounded(d.interval[0]), high: rounded(d.interval[1]),
  }) }));
}

// At a table, what the decision changed of the seat's standing against the others (its round
// score minus their mean, docs/ANALYSIS.md `standing`): a joker fed to the next player costs
// standing even where it costs no points of one's own (issue 40).
function standingText(d, deal) {
  if (!d.standing || d.unjudged) return null;
  const change = -rounded(d.standing.cost);
  const key = deal ? "analysis.standingDeal" : "analysis.standing";
  const said = h("span", { class: "analysis-standing", text: t(key, {
    change: change > 0 ? `+${change}` : String(change),
  }) });
  if (deal || !d.standing.interval) return said;
  return h("span", {}, said, " ", h("span", { class: "analysis-interval", text: t("analysis.interval", {
    low: -rounded(d.standing.interval[1]), high: -rounded(d.standing.interval[0]),
  }) }));
}

// One decision that differed from the analyst: its mark (`view` mode only), the move played and
// the best candidate in the page's words (`say`: the game's move-to-words), or, where the played
// move measured better than every candidate, that (docs/ANALYSIS.md `played_better`).
function decisionItem(d, { jump, say, deal }) {
  const mark = !deal && d.mark;
  const item = h("li", {
    class: `analysis-decision ${mark || ""}`.trim(), dataset: { move: String(d.move_index) },
  });
  if (mark) item.append(h("strong", { text: t(`analysis.mark.${d.mark}`) }), " ");
  item.append(
    h("span", { text: t("analysis.turn", { n: d.turn }) }), ": ",
    h("span", { text: t("analysis.played", { move: say(d.played) }) }), " · ",
    d.played_better
      ? h("span", { class: "analysis-played-better", text: t("analysis.playedBetter", { move: say(d.best) }) })
      : h("span", { text: t("analysis.better", { move: say(d.best) }) }),
    " · ", costText(d, deal));
  const standing = standingText(d, deal);
  if (standing) item.append(" · ", standing);
  if (jump) {
    item.append(" ", h("button", {
      type: "button", class: "button small analysis-jump", onclick: () => jump(d),
    }, t("analysis.jump")));
  }
  return item;
}

// The praise is earned only when no decision cost the document's smallest mark's threshold
// (docs/ANALYSIS.md "The pages"), marked or not; a deal's luck earns none.
function praised(doc, differed) {
  if (doc.mode === "deal") return false;
  const threshold = Number((doc.marks || {}).inaccuracy ?? 0);
  return differed.every((d) => d.unjudged || exact(d.cost) < threshold);
}

function render(root, doc, { jump, say }) {
  const deal = doc.mode === "deal";
  const differed = (doc.decisions || []).filter((d) => !d.same);
  const s = doc.summary || {};
  root.append(
    h("p", { class: "analysis-summary", text: t("analysis.summary", {
      matching: s.matching ?? 0, decisions: s.decisions ?? 0,
    }) }),
    ...(deal ? [h("p", { class: "analysis-deal", text: t("analysis.dealNote") })] : []),
    barChart((doc.graph || []).map((p) => ({
      label: t("analysis.turn", { n: p.turn }), value: rounded(p.expected),
    })), { title: t("analysis.graph") }),
    h("p", { class: "analysis-graph-note", text: t(deal ? "analysis.graphDeal" : "analysis.graphNote") }),
    ...(differed.length
      ? [h("ol", { class: "analysis-decisions" }, ...differed.map((d) => decisionItem(d, { jump, say, deal })))]
      : []),
    ...(praised(doc, differed) ? [h("p", { class: "analysis-praise", text: t("analysis.clean", {
      threshold: (doc.marks || {}).inaccuracy ?? 0,
    }) })] : []));
}

// Show an analysis in `root`, polling while it is queued; quietly says so when the service
// refuses it (not verified, a practice game) or takes too long. `id`: a finished attempt's id,
// or the options {load, jump, before, say}: `load()` asks for the document (e.g. a table's
// round), `jump(decision)` shows a decision's position, `before` is put above the document (a
// Gin match's hand buttons), `say(move)` is the game's move in words (F2 text without it). A failed job (503 analysis_failed) is asked for again: it is then
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
      render(root, doc, { jump: options.jump, say: options.say || String });
      root.dataset.ready = "1";
      return;
    }
    await sleep(PAUSE_MS[Math.min(i, PAUSE_MS.length - 1)]);
  }
  status.textContent = t("analysis.unavailable");
}
