// Bar charts as inline SVG, drawn by the page itself (no library, no CDN): a histogram of score
// buckets with an optional mark on one bar, and a row of daily results.

const SVG = "http://www.w3.org/2000/svg";

function el(tag, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== null) node.textContent = text;
  return node;
}

// bars: [{label, value, mark?}]; returns an <svg> with one <rect class="bar"> per bar.
export function barChart(bars, { title, width = 480, height = 160 } = {}) {
  const svg = el("svg", {
    viewBox: `0 0 ${width} ${height + 20}`, role: "img", class: "chart", width: "100%",
  });
  if (title) svg.append(el("title", {}, title));
  const max = Math.max(1, ...bars.map((b) => Math.abs(b.value)));
  const step = width / Math.max(1, bars.length);
  const zero = bars.some((b) => b.value < 0) ? height / 2 : height;
  bars.forEach((bar, i) => {
    const size = (Math.abs(bar.value) / max) * (zero === height ? height : height / 2);
    const y = bar.value >= 0 ? zero - size : zero;
    const rect = el("rect", {
      x: i * step + 1, y, width: Math.max(1, step - 2), height: Math.max(size, 1),
      class: bar.mark ? "bar mark" : "bar",
    });
    rect.append(el("title", {}, `${bar.label}: ${bar.value}`));
    svg.append(rect);
    if (bar.mark) {
      svg.append(el("text", { x: i * step + step / 2, y: height + 16, "text-anchor": "middle",
        class: "mark-label" }, bar.markLabel || "▲"));
    }
  });
  svg.append(el("line", { x1: 0, x2: width, y1: zero, y2: zero, class: "axis" }));
  return svg;
}

// A histogram from the API's bars [{from, to, count}], marking the bar whose from is `mark`.
export function histogram(bars, title, mark = null, markLabel = null) {
  return barChart(bars.map((b) => ({
    label: `${b.from} … ${b.to}`, value: b.count, mark: b.from === mark, markLabel,
  })), { title });
}
