-- Text for :SessionTree and :SessionContext. Pure functions of the server's JSON (no editor state), iterative so
-- a 100,000-entry session or a deep branchy one renders without recursion.
local M = {}

local function is_null(value)
  return value == nil or value == vim.NIL
end

local function title(node)
  local kind = not is_null(node.role) and node.role or (not is_null(node.type) and node.type or 'entry')
  local text = is_null(node.text) and '' or vim.trim((node.text:gsub('%s+', ' ')))
  return text ~= '' and (kind .. ': ' .. text) or kind
end

--- { lines = {...}, targets = {...} }: one line per entry, linear runs flat and one indent per branch point;
--- targets[i] is the 0-based session line of lines[i], or false for header lines.
function M.render(tree)
  local nodes = is_null(tree.nodes) and {} or tree.nodes
  local by_line, children, roots = {}, {}, {}
  for _, node in ipairs(nodes) do
    by_line[node.line] = node
  end
  for _, node in ipairs(nodes) do
    local parent = node.parent
    if is_null(parent) or parent == node.line or not by_line[parent] then
      table.insert(roots, node)
    else
      children[parent] = children[parent] or {}
      table.insert(children[parent], node)
    end
  end
  local leaf = not is_null(tree.leaf) and tree.leaf.line or nil
  local active = {}
  local line = leaf
  while line ~= nil and not active[line] and by_line[line] do
    active[line] = true
    line = by_line[line].parent
    if is_null(line) then
      line = nil
    end
  end

  local format = is_null(tree.format) and 'session' or tree.format
  local version = (not is_null(tree.version)) and (' v' .. tostring(tree.version)) or ''
  local count = is_null(tree.entries) and #nodes or tree.entries
  local lines = { string.format('%s%s, %d entries   (● on the active path, <CR> goes to the entry)', format, version, count) }
  local targets = { false }

  local stack = {}
  local depth0 = #roots > 1 and 1 or 0
  for i = #roots, 1, -1 do
    table.insert(stack, { roots[i], depth0 })
  end
  local seen = {}
  while #stack > 0 do
    local item = table.remove(stack)
    local node, depth = item[1], item[2]
    while node and not seen[node.line] do
      seen[node.line] = true
      local next = children[node.line] or {}
      local parts = { string.rep('  ', depth), active[node.line] and '● ' or '○ ', title(node) }
      if not is_null(node.label) and node.label ~= '' then
        table.insert(parts, '  [' .. node.label .. ']')
      end
      if #next > 1 then
        table.insert(parts, string.format('  (%d branches)', #next))
      end
      if node.line == leaf then
        table.insert(parts, '  <- active leaf')
      end
      table.insert(lines, table.concat(parts))
      table.insert(targets, node.line)
      if #next == 1 then
        node = next[1]
      else
        for i = #next, 1, -1 do
          table.insert(stack, { next[i], depth + 1 })
        end
        node = nil
      end
    end
  end
  return { lines = lines, targets = targets }
end

--- Lines for :SessionContext: a header, then each message as "## n. role (line N)" and its text.
function M.render_context(context, line)
  local messages = is_null(context.messages) and {} or context.messages
  local lines = { string.format('# Model context from line %d: %d messages', line + 1, #messages), '' }
  for index, message in ipairs(messages) do
    local where = is_null(message.line) and '' or string.format(' (line %d)', message.line + 1)
    table.insert(lines, string.format('## %d. %s%s', index, is_null(message.role) and '?' or message.role, where))
    for _, text in ipairs(vim.split(is_null(message.text) and '' or message.text, '\n', { plain = true })) do
      table.insert(lines, text)
    end
    table.insert(lines, '')
  end
  return lines
end

return M
