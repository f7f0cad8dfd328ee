/** "Show Model Context Here" as text: what the agent would send to the model from a leaf, one message a block. */
import type { ContextResult } from "./protocol";

export function contextText(result: ContextResult, fileName: string, line: number): string {
  const header = [
    `Model context from line ${line + 1} of ${fileName}`,
    `${result.messages.length} message${result.messages.length === 1 ? "" : "s"}, in the order the agent sends them.`,
  ];
  const extras = Object.entries(result).filter(([key, value]) => key !== "messages" && key !== "line" && value !== null && typeof value !== "object");
  for (const [key, value] of extras) header.push(`${key}: ${String(value)}`);
  const blocks = result.messages.map((message, index) => {
    const where = message.line === null || message.line === undefined ? "" : ` (line ${message.line + 1})`;
    return `── ${index + 1}. ${message.role}${where} ──\n${message.text}`;
  });
  return [header.join("\n"), ...blocks].join("\n\n") + "\n";
}
