// Bar charts as inline SVG, drawn by the page itself (no library, no CDN): a histogram of score
// buckets with an optional mark on one bar, and a row of daily results.

const SVG = "http://www.w3.org/2000/svg";

function el(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== null) node.textContent = text;
  return node;
}

// The widest a bar is drawn: one or two bars stay bars, not a block filling the chart.
const MAX_BAR = 48;
const LEFT = 40; // room for the value axis' labels

// bars: [{label, value, mark?}]; returns an <svg> with one <rect class="bar"> per bar, a value
// axis labelled with its top (and bottom, below zero) and zero, and the first and last bar's
// labels under the baseline, so a chart of a single point still reads as a chart.
export function barChart(bars, { title, width = 480, height = 160 } = {}) {
  const svg = el("svg", {
    viewBox: `0 0 ${width} ${height + 36}`, role: "img", class: "chart", width: "100%",
  });
  if (title) svg.append(el("title", {}, title));
  const max = Math.max(1, ...bars.map((b) => Math.abs(b.value)));
  const negative = bars.some((b) => b.value < 0);
  const plot = width - LEFT;
  const step = plot / Math.max(1, bars.length);
  const barWidth = Math.max(1, Math.min(step - 2, MAX_BAR));
  const zero = negative ? height / 2 : height;
  const centre = (i) => LEFT + i * step + step / 2;
  bars.forEach((bar, i) => {
    const size = (Math.abs(bar.value) / max) * (negative ? height / 2 : height);
    const y = bar.value >= 0 ? zero - size : zero;
    const rect = el("rect", {
      x: centre(i) - barWidth / 2, y, width: barWidth, height: Math.max(size, 1),
      class: bar.mark ? "bar mark" : "bar",
    });
    rect.append(el("title", {}, `${bar.label}: ${bar.value}`));
    svg.append(rect);
    if (bar.mark) {
      svg.append(el("text", { x: centre(i), y: height + 16, "text-anchor": "middle",
        class: "mark-label" }, bar.markLabel || "▲"));
    }
  });
  svg.append(el("line", { x1: LEFT, x2: width, y1: zero, y2: zero, class: "axis" }));
  svg.append(el("line", { x1: LEFT, x2: LEFT, y1: 0, y2: height, class: "axis" }));
  const tick = (value, y) => svg.append(el("text", { x: LEFT - 4, y, "text-anchor": "end",
    "dominant-baseline": "middle", class: "axis-label" }, String(value)));
  tick(max, 6);
  tick(0, zero);
  if (negative) tick(-max, height - 6);
  if (bars.length) {
    const ends = bars.length === 1 ? [0] : [0, bars.length - 1];
    for (const i of ends) {
      const anchor = bars.length === 1 ? "middle" : i === 0 ? "start" : "end";
      const x = bars.length === 1 ? centre(i) : i === 0 ? LEFT : width;
      svg.append(el("text", { x, y: height + 32, "text-anchor": anchor, class: "axis-label" },
        bars[i].label));
    }
  }
  return svg;
}

// A histogram from the API's bars [{from, to, count}], marking the bar whose from is `mark`.
export function histogram(bars, title, mark = null, markLabel = null) {
  return barChart(bars.map((b) => ({
    label: `${b.from} … ${b.to}`, value: b.count, mark: b.from === mark, markLabel,
  })), { title });
}
