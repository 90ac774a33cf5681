// Front-end build: bundle our scripts with esbuild and copy the vendored libraries (htmx,
// KaTeX with its fonts and auto-render) into static/build/, which Django serves as static files.
//   npm run build          one production build
//   npm run watch          rebuild on change
import { build, context } from "esbuild";
import { cpSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(fileURLToPath(import.meta.url));
const out = join(root, "static", "build");
const modules = join(root, "node_modules");
const watch = process.argv.includes("--watch");

const options = {
  entryPoints: {
    editor: join(root, "static/src/editor.js"),
    app: join(root, "static/src/app.js"),
    authoring: join(root, "static/src/authoring.js"),
  },
  outdir: out,
  bundle: true,
  minify: !watch,
  sourcemap: watch ? "inline" : false,
  format: "iife",
  target: ["es2020"],
  legalComments: "linked",
  logLevel: "info",
};

function copyVendor() {
  const vendor = [
    ["htmx.org/dist/htmx.min.js", "htmx.min.js"],
    ["katex/dist/katex.min.js", "katex/katex.min.js"],
    ["katex/dist/katex.min.css", "katex/katex.min.css"],
    ["katex/dist/fonts", "katex/fonts"],
    ["katex/dist/contrib/auto-render.min.js", "katex/auto-render.min.js"],
  ];
  for (const [from, to] of vendor) {
    mkdirSync(dirname(join(out, to)), { recursive: true });
    cpSync(join(modules, from), join(out, to), { recursive: true });
  }
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
copyVendor();
if (watch) {
  const ctx = await context(options);
  await ctx.watch();
} else {
  await build(options);
}
