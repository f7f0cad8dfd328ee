import { strict as assert } from "node:assert";
import { test } from "node:test";

import { chosen, Inspected, userSettings } from "../src/userSettings";

const KEYS = ["sessionLsp.piVersion", "sessionLsp.claudeVersion", "sessionLsp.server.path", "sessionLsp.ignore", "other.key"];

test("settings: a default the user never set is not sent (a configuration file's release stays in force)", () => {
  const seen: Record<string, Inspected> = { piVersion: {}, claudeVersion: {}, "server.path": {}, ignore: {} };
  assert.deepEqual(userSettings("sessionLsp", KEYS, (name) => seen[name]), {});
});

test("settings: what the user set is sent, nested as VS Code nests dotted names, the most specific scope first", () => {
  const seen: Record<string, Inspected> = {
    piVersion: { globalValue: "0.73", workspaceValue: "1.6" },
    claudeVersion: { globalValue: "2.1.332" },
    "server.path": { workspaceFolderValue: "/opt/session-lsp" },
    ignore: { globalValue: [], workspaceFolderLanguageValue: ["ELY065"] },
  };
  assert.deepEqual(userSettings("sessionLsp", KEYS, (name) => seen[name]), {
    piVersion: "1.6",
    claudeVersion: "2.1.332",
    server: { path: "/opt/session-lsp" },
    ignore: ["ELY065"],
  });
});

test("settings: a value set to the default is the user's choice, and is sent", () => {
  assert.equal(chosen({ globalValue: "1.6" }), "1.6");
  assert.equal(chosen({ globalValue: false }), false);
  assert.equal(chosen(undefined), undefined);
});
