/** "Show Model Context Here" as text: what the agent would send to the model from a leaf, one message a block. */
import type { ContextResult } from "./protocol";

export function contextText(result: ContextResult, fileName: string, line: number): string {
  const count = result.messages.length;
  const header = [`Model context from line ${line + 1} of ${fileName}${result.label ? ` (${result.label})` : ""}`];
  if (typeof result.leaf === "number" && result.leaf !== line) header.push(`Line ${line + 1} is not an entry; this is the context from the active leaf, line ${result.leaf + 1}.`);
  if (result.turn_id) header.push(`Turn ${result.turn_id}.`);
  if (result.cut_short) header.push(`Mid-conversation: ${result.cut_short}.`);
  if (result.refused) header.push(`The agent refuses to resume this file: ${result.refused}. Nothing is sent.`);
  else header.push(count === 0 ? "Nothing is sent from here." : `${count} message${count === 1 ? "" : "s"}, in the order the agent sends them.`);
  const blocks = result.messages.map((message, index) => {
    const where = typeof message.line === "number" ? ` (line ${message.line + 1})` : "";
    const note = message.note ? ` [${message.note}]` : "";
    return `── ${index + 1}. ${message.role}${where}${note} ──\n${message.text}`;
  });
  return [header.join("\n"), ...blocks].join("\n\n") + "\n";
}
