// The statistics page: the caller's games, average, best, streaks, a histogram of own scores and
// the recent days, charts drawn as SVG by lib/chart.js; "Meine Spiele": every finished game of
// theirs still kept (daily attempts, practice, tables, Gin), each linking to its replay.

import { myGames, myStats } from "./lib/api.js";
import { barChart, histogram } from "./lib/chart.js";
import { $, clear, h } from "./lib/dom.js";
import { explain } from "./lib/explain.js";
import { formatDate, formatNumber, signed, t } from "./lib/i18n.js";

function gameText(g) {
  const game = t(`tables.game.${g.game}`);
  if (g.type === "table") return t("games.table", { game, n: g.players });
  const day = t(g.ranked ? "games.daily" : "games.practice", { game, date: formatDate(g.date) });
  return g.score === null ? day : `${day} · ${t("games.score", { score: signed(g.score) })}`;
}

async function showGames() {
  const games = await myGames();
  $("#games-none").hidden = games.length > 0;
  clear($("#my-games")).append(...games.map((g) => h("li", { dataset: { id: g.id, type: g.type } },
    h("span", { text: gameText(g) }), " ",
    h("a", { href: g.replay, class: "replay-link", text: t("games.replay") }))));
}

async function main() {
  showGames().catch((e) => { $("#stats-error").textContent = explain(e); });
  let me;
  try {
    me = await myStats();
  } catch (e) {
    $("#stats-error").textContent = explain(e);
    return;
  }
  const stats = me.stats;
  const streak = me.streaks.pikdame;
  $("#stats-games").textContent = formatNumber(stats.games);
  $("#stats-average").textContent = stats.average === null ? "–" : formatNumber(stats.average);
  $("#stats-best").textContent = stats.best === null ? "–" : signed(stats.best);
  $("#stats-streak").textContent = formatNumber(streak.current);
  $("#stats-best-streak").textContent = formatNumber(streak.best);
  $("#stats-none").hidden = stats.games > 0;
  clear($("#stats-histogram")).append(histogram(stats.histogram, t("stats.histogram")));
  const recent = [...stats.recent].reverse();
  clear($("#stats-recent-chart")).append(barChart(
    recent.map((d) => ({ label: formatDate(d.date), value: d.score })), { title: t("stats.recent") }));
  clear($("#stats-recent")).append(...stats.recent.map((d) => h("tr", {},
    h("td", { text: formatDate(d.date) }), h("td", { class: "num", text: signed(d.score) }))));
  showRatings(me.ratings);
  document.body.dataset.ready = "1";
}

// Each table game's rating with its latest changes (docs/LOBBY.md), for a signed-in player.
function showRatings(ratings) {
  if (!ratings) return;
  const games = Object.entries(ratings).filter(([, r]) => r.games > 0);
  $("#ratings-section").hidden = games.length === 0;
  clear($("#stats-ratings")).append(...games.map(([game, r]) => h("div", { class: "rating-history", dataset: { game } },
    h("h3", {}, t("ratings.summary", { game: t(`tables.game.${game}`), rating: r.rating, n: r.games }), " ",
      h("a", { href: `/ratings/${game}`, text: t("ratings.board") })),
    h("ul", {}, r.history.map((e) => h("li", { text: t("ratings.entry", {
      date: formatDate(new Date(e.at).toISOString().slice(0, 10)), before: e.before, after: e.after,
      change: signed(e.change), place: e.place, players: e.players,
    }) }))))));
}

main();
