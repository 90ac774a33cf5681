// Renders TeX to HTML with KaTeX for printed exams (WeasyPrint runs no JavaScript).
// argv[2]: the katex package folder. stdin: JSON [[tex, display], ...]. stdout: JSON
// [{"html": "..."} | {"error": "..."}, ...] in the same order. A bad formula is an error entry
// (its TeX is then printed as text), never a crash of the whole batch.
const katex = require(process.argv[2]);
let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const out = JSON.parse(input).map(([tex, display]) => {
    try {
      return { html: katex.renderToString(tex, { displayMode: !!display, output: "html", throwOnError: true,
                                                  strict: "ignore", trust: false, maxExpand: 1000 }) };
    } catch (err) {
      return { error: String(err.message || err) };
    }
  });
  process.stdout.write(JSON.stringify(out));
});
