// One VS Code scenario in real VS Code (code-server 4.100.3 = VS Code 1.100.3) driven through Chromium with
// playwright-core: open a broken Elyra session and record what the workbench shows. test_vscode.py starts
// code-server and asserts on the JSON this writes. Selectors belong to VS Code 1.100 (pinned).
//
// env: E2E_URL (workbench URL), E2E_FILE (session file name), E2E_HOVER ("line,col" 0-based), E2E_OUT (JSON),
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

async function step(name, fn) {
  const started = Date.now();
  try {
    await fn();
    out.steps.push({ name, ms: Date.now() - started });
  } catch (error) {
    out.errors.push(`${name}: ${String(error && error.message ? error.message.split("\n")[0] : error)}`);
  }
}

async function command(page, title) {
  await page.keyboard.press("F1");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible" });
  await input.fill(`>${title}`);
  await page.locator(".quick-input-list .monaco-list-row", { hasText: title }).first().waitFor();
  await page.keyboard.press("Enter");
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

async function statusPosition(page) {
  return text(page.locator("#status\\.editor\\.selection"));
}

async function rows(locator) {
  return (await locator.allInnerTexts()).map((row) => plain(row).replace(/\s+/g, " ").trim());
}

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  const page = await browser.newPage({ viewport: { width: 1600, height: 900 } });
  page.setDefaultTimeout(15000);
  try {
    await step("workbench", async () => {
      await page.goto(process.env.E2E_URL);
      await page.locator(".monaco-workbench").waitFor({ timeout: 60000 });
      await page.locator(".explorer-folders-view, .explorer-viewlet").first().waitFor({ timeout: 60000 });
    });

    await step("open file", async () => {
      await page.keyboard.press("Control+P");
      const input = page.locator(".quick-input-widget input");
      await input.waitFor({ state: "visible" });
      await input.fill(process.env.E2E_FILE);
      await page.locator(".quick-input-list .monaco-list-row", { hasText: process.env.E2E_FILE }).first().waitFor();
      await page.keyboard.press("Enter");
      await page.locator(".monaco-editor .view-lines").first().waitFor();
      out.language = await text(page.locator("#status\\.editor\\.mode"));
    });

    await step("problems", async () => {
      await page.keyboard.press("Control+Shift+M");
      await page.locator(".markers-panel .monaco-list-row", { hasText: "ELY" }).first().waitFor({ timeout: 60000 });
      await page.waitForTimeout(500);
      out.problems = await rows(page.locator(".markers-panel .monaco-list-row"));
      out.squiggles = await page.locator(".monaco-editor .squiggly-error, .monaco-editor .squiggly-warning").count();
    });

    await step("status bar", async () => {
      const item = page.locator('[id$="sessionLsp.status"]').first();
      await item.waitFor();
      await page.waitForFunction(() => /Elyra|thndrs|not a session/.test(document.querySelector('[id$="sessionLsp.status"]')?.innerText ?? ""));
      out.status = (await text(item)).replace(/\s+/g, " ");
    });

    await step("hover", async () => {
      await page.locator(".monaco-editor .view-lines").first().click();
      await goTo(page, hoverLine, hoverCol);
      out.hover = await showHover(page);
      await page.keyboard.press("Escape");
    });

    await step("definition", async () => {
      out.before_definition = await statusPosition(page);
      await page.keyboard.press("F12");
      await page.waitForFunction((before) => document.getElementById("status.editor.selection")?.innerText.replace(/\u00a0/g, " ").trim() !== before, out.before_definition);
      out.after_definition = await statusPosition(page);
    });

    await step("outline", async () => {
      await page.keyboard.press("Control+Shift+O");
      await page.locator(".quick-input-list .monaco-list-row").first().waitFor();
      await page.waitForTimeout(300);
      out.outline = await rows(page.locator(".quick-input-list .monaco-list-row"));
      await page.keyboard.press("Escape");
    });

    await step("session tree", async () => {
      // Room for the whole tree: fold the folder view, widen the side bar.
      const folders = page.locator(".pane-header", { hasText: "work" }).first();
      if ((await folders.getAttribute("aria-expanded")) === "true") await folders.click();
      const box = await page.locator(".part.sidebar").boundingBox();
      if (box) {
        await page.mouse.move(box.x + box.width, box.y + box.height / 2);
        await page.mouse.down();
        await page.mouse.move(box.x + 620, box.y + box.height / 2, { steps: 5 });
        await page.mouse.up();
      }
      const pane = page.locator(".pane", { has: page.locator(".pane-header", { hasText: "Session Tree" }) });
      const header = pane.locator(".pane-header");
      await header.waitFor();
      if ((await header.getAttribute("aria-expanded")) !== "true") await header.click();
      await pane.locator(".monaco-list-row").first().waitFor({ timeout: 30000 });
      await page.waitForTimeout(500);
      out.tree = await rows(pane.locator(".monaco-list-row"));
    });

    await step("screenshot", async () => {
      await page.locator(".monaco-editor .view-lines").first().click();
      await goTo(page, hoverLine, hoverCol);
      await showHover(page);
      if (shots) await page.screenshot({ path: path.join(shots, "vscode.png") });
      await page.keyboard.press("Escape");
    });

    await step("model context", async () => {
      await page.locator(".monaco-editor .view-lines").first().click();
      await goTo(page, hoverLine, 0);
      await command(page, "Session LSP: Show Model Context Here");
      const tab = page.locator(".tabs-container .tab", { hasText: "context at line" });
      await tab.first().waitFor();
      await page.waitForTimeout(500);
      out.context_tab = await text(tab);
      out.context_text = (await text(page.locator(".editor-group-container.active .view-lines"))).slice(0, 2000);
    });

    // Which server the extension started: nothing was configured, so it must be the bundled copy.
    await step("server process", async () => {
      out.server_processes = [];
      for (const pid of fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
        let command = "";
        try {
          command = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
        } catch {
          continue;
        }
        if (command.includes(process.env.E2E_EXTENSIONS) && command.includes("server.py")) out.server_processes.push(command);
      }
    });

    // A server path that does not exist: the extension restarts and says once what to set.
    await step("no server", async () => {
      const settings = process.env.E2E_SETTINGS;
      const value = JSON.parse(fs.readFileSync(settings, "utf8"));
      value["sessionLsp.server.path"] = "/nonexistent/session-lsp";
      fs.writeFileSync(settings, JSON.stringify(value));
      const toast = page.locator(".notifications-toasts .notification-toast", { hasText: "sessionLsp.server.path" });
      await toast.first().waitFor({ timeout: 20000 });
      await page.waitForTimeout(1500);
      out.no_server_toasts = await rows(page.locator(".notifications-toasts .notification-toast"));
      out.no_server_status = await text(page.locator('[id$="sessionLsp.status"]'));
    });
  } finally {
    // When a step failed, what the workbench looked like at the end (vscode.png is taken midway).
    if (shots && out.errors.length) await page.screenshot({ path: path.join(shots, "vscode-failed.png") }).catch(() => {});
    fs.writeFileSync(process.env.E2E_OUT, JSON.stringify(out, null, 2));
    await browser.close();
  }
})().catch((error) => {
  out.errors.push(`e2e.js: ${String(error)}`);
  fs.writeFileSync(process.env.E2E_OUT, JSON.stringify(out, null, 2));
  process.exit(1);
});
