// A session file in real VS Code (code-server 4.100.3 = VS Code 1.100.3) driven through Chromium with
// playwright-core, for any format: open it and record what the workbench shows right after it opens (nothing clicked:
// the Session Tree, the Problems panel, the status bar), then the hover and F12 at the case's position, the outline
// and the whole Session Tree. test_vscode.py (pi, with every optional step) and test_agents.py (Claude Code, Codex, a
// .jsonl.zst) start code-server and assert on the JSON this writes. Selectors belong to VS Code 1.100 (pinned).
//
// env: E2E_URL (workbench URL), E2E_CASE (JSON: `file` the session's name, `hover` [line, col] 0-based, `diagnostic`
//      a code prefix the Problems panel shows, `status` what the status bar names, `tree` a label of the tree; the
//      optional steps: `welcome` (the tree's text before a session opens), `thndrs` and `other` (names of a thndrs
//      session and of a file that is no session beside it), `screenshot`, `context`, `no_server` (which also needs
//      E2E_SETTINGS and E2E_EXTENSIONS)), E2E_OUT (JSON), E2E_SCREENSHOTS (folder), PLAYWRIGHT_CORE (path of the
//      playwright-core package), CHROMIUM.
"use strict";
const fs = require("fs");
const path = require("path");
const { chromium } = require(process.env.PLAYWRIGHT_CORE);

const out = { errors: [], steps: [] };
const shots = process.env.E2E_SCREENSHOTS;
const scenario = JSON.parse(process.env.E2E_CASE);
const [hoverLine, hoverCol] = scenario.hover;

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
  const label = new RegExp(scenario.tree.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  try {
    await step("workbench", async () => {
      await page.goto(process.env.E2E_URL);
      await page.locator(".monaco-workbench").waitFor({ timeout: 60000 });
      await page.locator(".explorer-folders-view, .explorer-viewlet").first().waitFor({ timeout: 60000 });
    });

    // Before any session file is open the Session Tree says what it is for.
    if (scenario.welcome) {
      await step("tree welcome", async () => {
        const pane = sessionTreePane(page);
        await pane.locator(".pane-header").waitFor({ timeout: 60000 });
        await expand(pane);
        const welcome = pane.locator(".welcome-view-content");
        await welcome.first().waitFor({ timeout: 20000 }).catch(() => undefined);
        out.tree_welcome = (await welcome.count()) ? await text(welcome) : "";
        out.tree_rows_before_open = await rows(pane.locator(".monaco-list-row"));
      });
    }

    await step("open file", async () => {
      await openFile(page, scenario.file);
      out.language = await text(page.locator("#status\\.editor\\.mode"));
      out.tab = await text(page.locator(".tabs-container .tab.active"));
      out.first_line = await text(page.locator(".monaco-editor .view-lines .view-line").first());
    });

    // Right after the file opens, before any click in the editor or the tree: the tree is there.
    await step("tree on open", async () => {
      out.tree_on_open = await treeRows(page, label);
      const welcome = sessionTreePane(page).locator(".welcome-view-content");
      out.tree_welcome_on_open = (await welcome.count()) && (await welcome.first().isVisible()) ? await text(welcome) : "";
    });

    // A thndrs session opened next to it: its turns replace the tree, again without a click.
    if (scenario.thndrs) {
      await step("thndrs tree on open", async () => {
        await openFile(page, scenario.thndrs);
        out.thndrs_tree_on_open = await treeRows(page, /turn|user/);
        await openFile(page, scenario.file);
        out.tree_back = await treeRows(page, label);
      });
    }

    // A file that is not a session becomes the only editor: the tree goes back to its welcome text.
    if (scenario.other) {
      await step("tree welcome again", async () => {
        await openFile(page, scenario.other);
        const pane = sessionTreePane(page);
        await pane.locator(".welcome-view-content").first().waitFor({ timeout: 15000 }).catch(() => undefined);
        out.tree_welcome_other = (await pane.locator(".welcome-view-content").count()) ? await text(pane.locator(".welcome-view-content")) : "";
        out.tree_rows_other = await rows(pane.locator(".monaco-list-row"));
        await openFile(page, scenario.file);
        out.tree_back_again = await treeRows(page, label);
      });
    }

    await step("problems", async () => {
      await page.keyboard.press("Control+Shift+M");
      await page.locator(".markers-panel .monaco-list-row", { hasText: scenario.diagnostic }).first().waitFor({ timeout: 60000 });
      await page.waitForTimeout(500);
      out.problems = await rows(page.locator(".markers-panel .monaco-list-row"));
      // A click on the first problem shows it in the editor, under its squiggle.
      await page.locator(".markers-panel .monaco-list-row", { hasText: scenario.diagnostic }).first().click();
      await page.waitForTimeout(700);
      out.problem_position = await statusPosition(page);
      out.squiggles = await page.locator(".monaco-editor .squiggly-error, .monaco-editor .squiggly-warning").count();
    });

    await step("status bar", async () => {
      const item = page.locator('[id$="sessionLsp.status"]').first();
      await item.waitFor();
      await page.waitForFunction((name) => (document.querySelector('[id$="sessionLsp.status"]')?.innerText ?? "").includes(name), scenario.status);
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
      const pane = sessionTreePane(page);
      await pane.locator(".pane-header").waitFor();
      await expand(pane);
      await pane.locator(".monaco-list-row").first().waitFor({ timeout: 30000 });
      await page.waitForTimeout(500);
      out.tree = await rows(pane.locator(".monaco-list-row"));
    });

    await step("screenshot", async () => {
      await page.locator(".monaco-editor .view-lines").first().click();
      await goTo(page, hoverLine, hoverCol);
      await showHover(page);
      if (shots) await page.screenshot({ path: path.join(shots, scenario.screenshot || `vscode-${scenario.file}.png`) });
      await page.keyboard.press("Escape");
    });

    if (scenario.context) {
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
    }

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
        if (process.env.E2E_EXTENSIONS && command.includes(process.env.E2E_EXTENSIONS) && command.includes("server.py")) out.server_processes.push(command);
      }
    });

    // A server path that does not exist: the extension restarts and says once what to set.
    if (scenario.no_server) {
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
    }
  } finally {
    // When a step failed, what the workbench looked like at the end.
    if (shots && out.errors.length) await page.screenshot({ path: path.join(shots, `vscode-failed-${scenario.file}.png`) }).catch(() => {});
    fs.writeFileSync(process.env.E2E_OUT, JSON.stringify(out, null, 2));
    await browser.close();
  }
})().catch((error) => {
  out.errors.push(`e2e.js: ${String(error)}`);
  fs.writeFileSync(process.env.E2E_OUT, JSON.stringify(out, null, 2));
  process.exit(1);
});
