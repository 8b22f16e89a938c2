// A finished attempt's place in the field: matchpoints (provisional until the day closes), the
// day's histogram with the player's mark, the bot's par and the share text (one click).

import { place, shareOf } from "./lib/api.js";
import { histogram } from "./lib/chart.js";
import { $, clear } from "./lib/dom.js";
import { explain } from "./lib/explain.js";
import { formatNumber, signed, t } from "./lib/i18n.js";
import { copyOnClick } from "./lib/share.js";

async function main() {
  const id = document.body.dataset.attempt;
  let doc;
  try {
    doc = await place(id);
  } catch (e) {
    $("#field-error").textContent = explain(e);
    document.body.dataset.ready = "1";
    return;
  }
  const state = t(doc.final ? "field.final" : "field.provisional");
  $("#field-score").textContent = signed(doc.score);
  $("#field-place").textContent = `${doc.rank ?? doc.beaten + 1} / ${formatNumber(doc.total)}`;
  $("#field-percentage").textContent = doc.percentage === null ? `– (${state})`
    : `${formatNumber(doc.percentage)} % (${state})`;
  $("#field-par").textContent = doc.par ? signed(doc.par.score) : t("field.parPending");
  $("#field-beaten").textContent = t("field.beaten",
    { beaten: doc.beaten, others: doc.others, ties: doc.ties });
  clear($("#field-histogram")).append(
    histogram(doc.histogram, t("field.histogram"), doc.mark, t("field.you")));
  try {
    $("#field-share").value = await shareOf(id, document.documentElement.lang);
  } catch (e) {
    $("#field-error").textContent = explain(e);
  }
  copyOnClick($("#field-share-copy"), $("#field-share"), $("#field-share-done"));
  document.body.dataset.ready = "1";
}

main();
