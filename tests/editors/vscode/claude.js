// A Claude Code session in real VS Code (code-server 4.100.3 = VS Code 1.100.3) through Chromium and
// playwright-core: open it and record, before anything is clicked, the Session Tree, the Problems panel and the
// status bar; then the hover at E2E_HOVER and the outline. test_claude_code.py starts code-server (test_vscode.py's
// fixture) and asserts on the JSON this writes. The helpers are e2e.js's; selectors belong to VS Code 1.100.
//
// env: E2E_URL (workbench URL), E2E_FILE (session file name), E2E_HOVER ("line,col" 0-based), E2E_WARNING (the
//      0-based line of a warning), E2E_OUT (JSON),
//      E2E_SCREENSHOTS (folder), PLAYWRIGHT_CORE (path of the playwright-core package), CHROMIUM.
"use strict";
const fs = require("fs");
const path = require("path");
const { chromium } = require(process.env.PLAYWRIGHT_CORE);

const out = { errors: [], steps: [] };
const shots = process.env.E2E_SCREENSHOTS;
const [hoverLine, hoverCol] = process.env.E2E_HOVER.split(",").map(Number);

/** What the workbench shows, as plain text: Monaco renders the spaces of its view lines (and some labels) as
 * U+00A0, which would never equal the ASCII text the server sent. */
function plain(text) {
  return text.replace(/\u00a0/g, " ");
}

/** The visible text of the first element `locator` matches, non-breaking spaces turned back into spaces. */
async function text(locator) {
  return plain(await locator.first().innerText()).trim();
}

let page;

async function step(name, fn) {
  const started = Date.now();
  try {
    await fn();
    out.steps.push({ name, ms: Date.now() - started });
  } catch (error) {
    out.errors.push(`${name}: ${String(error && error.message ? error.message.split("\n").slice(0, 3).join(" ") : error)}`);
    // What the workbench looked like when this step gave up.
    if (shots && page) await page.screenshot({ path: path.join(shots, `vscode-failed-${name.replace(/\W+/g, "-")}.png`) }).catch(() => {});
  }
}

async function goTo(page, line, column) {
  await page.keyboard.press("Control+G");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible" });
  await input.fill(`:${line + 1}:${column + 1}`);
  await page.keyboard.press("Enter");
  await page.locator(".quick-input-widget").waitFor({ state: "hidden" });
}

/** Hover with the mouse over the text at the cursor (where goTo put it). */
async function showHover(page) {
  const cursor = await page.locator(".monaco-editor .cursors-layer .cursor").first().boundingBox();
  await page.mouse.move(cursor.x + 4, cursor.y + cursor.height / 2);
  await page.mouse.move(cursor.x + 6, cursor.y + cursor.height / 2);
  const hover = page.locator(".monaco-hover-content", { hasText: /\S/ }).first();
  await hover.waitFor({ state: "visible" });
  await page.waitForTimeout(700); // it fades in
  return text(hover);
}

async function rows(locator) {
  return (await locator.allInnerTexts()).map((row) => plain(row).replace(/\s+/g, " ").trim());
}

async function openFile(page, name) {
  await page.keyboard.press("Control+P");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible" });
  await input.fill(name);
  // Enter only once the list has settled on the file (it filters as it goes; an early Enter opens another row).
  await page.locator(".quick-input-list .monaco-list-row.focused", { hasText: name }).first().waitFor();
  await page.waitForTimeout(200);
  await page.keyboard.press("Enter");
  await page.locator(".quick-input-widget").waitFor({ state: "hidden" });
  await page.locator(".tabs-container .tab.active", { hasText: name }).first().waitFor();
  await page.locator(".monaco-editor .view-lines").first().waitFor();
}

/** The Session Tree's rows once one matches `expected` (or after 30 s), the pane expanded but nothing clicked. */
async function treeRows(page, expected = /\S/) {
  const pane = sessionTreePane(page);
  await pane.locator(".pane-header").waitFor({ timeout: 60000 });
  await expand(pane);
  await pane.locator(".monaco-list-row", { hasText: expected }).first().waitFor({ timeout: 30000 }).catch(() => undefined);
  await page.waitForTimeout(300);
  return rows(pane.locator(".monaco-list-row"));
}

function sessionTreePane(page) {
  return page.locator(".pane", { has: page.locator(".pane-header", { hasText: "Session Tree" }) });
}

async function expand(pane) {
  const header = pane.locator(".pane-header");
  if ((await header.getAttribute("aria-expanded")) !== "true") await header.click();
}

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
  page.setDefaultTimeout(15000);
  try {
    await step("workbench", async () => {
      await page.goto(process.env.E2E_URL);
      await page.locator(".monaco-workbench").waitFor({ timeout: 60000 });
      await page.locator(".explorer-folders-view, .explorer-viewlet").first().waitFor({ timeout: 60000 });
    });

    await step("open file", async () => {
      await openFile(page, process.env.E2E_FILE);
    });

    // Right after the file opens, before any click in the editor or the tree.
    await step("tree on open", async () => {
      out.tree_on_open = await treeRows(page, /user: /);
    });

    await step("problems", async () => {
      await page.keyboard.press("Control+Shift+M");
      await page.locator(".markers-panel .monaco-list-row", { hasText: "CCD" }).first().waitFor({ timeout: 60000 });
      await page.waitForTimeout(500);
      out.problems = await rows(page.locator(".markers-panel .monaco-list-row"));
    });

    await step("status bar", async () => {
      const item = page.locator('[id$="sessionLsp.status"]').first();
      await item.waitFor();
      await page.waitForFunction(() => /Claude|Elyra|thndrs|not a session/.test(document.querySelector('[id$="sessionLsp.status"]')?.innerText ?? ""));
      out.status = (await text(item)).replace(/\s+/g, " ");
    });

    await step("hover", async () => {
      await page.locator(".monaco-editor .view-lines").first().click();
      await goTo(page, Number(process.env.E2E_WARNING), 0);  // the warning's line, in view
      await page.waitForTimeout(300);
      out.squiggles = await page.locator(".monaco-editor .squiggly-error, .monaco-editor .squiggly-warning").count();
      await goTo(page, hoverLine, hoverCol);
      out.hover = await showHover(page);
      if (shots) await page.screenshot({ path: path.join(shots, "vscode-claude.png") });
      await page.keyboard.press("Escape");
    });

    await step("outline", async () => {
      await page.keyboard.press("Control+Shift+O");
      await page.locator(".quick-input-list .monaco-list-row").first().waitFor();
      await page.waitForTimeout(300);
      out.outline = await rows(page.locator(".quick-input-list .monaco-list-row"));
      await page.keyboard.press("Escape");
    });
  } finally {
    if (shots && out.errors.length) await page.screenshot({ path: path.join(shots, "vscode-claude-failed.png") }).catch(() => {});
    fs.writeFileSync(process.env.E2E_OUT, JSON.stringify(out, null, 2));
    await browser.close();
  }
})().catch((error) => {
  out.errors.push(`claude.js: ${String(error)}`);
  fs.writeFileSync(process.env.E2E_OUT, JSON.stringify(out, null, 2));
  process.exit(1);
});
