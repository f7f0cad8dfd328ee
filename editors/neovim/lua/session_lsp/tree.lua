-- Text for :SessionTree and :SessionContext. Pure functions of the server's JSON (no editor state), iterative so
-- a 100,000-entry session or a deep branchy one renders without recursion.
local M = {}

local function is_null(value)
  return value == nil or value == vim.NIL
end

local function title(node)
  local text = is_null(node.title) and '' or vim.trim((node.title:gsub('%s+', ' ')))
  if text ~= '' then
    return text
  end
  return (not is_null(node.role) and node.role) or (not is_null(node.type) and node.type) or 'entry'
end

local function header(tree, count)
  local name = not is_null(tree.label) and tree.label or (is_null(tree.format) and 'session' or tree.format)
  return string.format('%s, %d entries   (● on the active path, <CR> goes to the entry)', name, count)
end

-- thndrs: one line per turn, its records indented below it.
local function render_turns(tree, nodes)
  local lines, targets = { header(tree, is_null(tree.entry_count) and #nodes or tree.entry_count) }, { false }
  for _, node in ipairs(nodes) do
    local suffix = (node.kind == 'turn' and node.settled == false) and '  (not settled)' or ''
    table.insert(lines, (node.kind == 'turn' and '▸ ' or '  ') .. title(node) .. suffix)
    table.insert(targets, node.line)
    for _, record in ipairs(is_null(node.records) and {} or node.records) do
      table.insert(lines, '    ' .. title(record))
      table.insert(targets, record.line)
    end
  end
  return { lines = lines, targets = targets }
end

--- { lines = {...}, targets = {...} } for a sessionLsp/tree result: one line per entry, linear runs flat and one
--- indent per branch point, the active branch first (the server's order); targets[i] is the 0-based session
--- line of lines[i], or false for header lines.
function M.render(tree)
  local nodes = is_null(tree.nodes) and {} or tree.nodes
  if nodes[1] and not is_null(nodes[1].kind) then
    return render_turns(tree, nodes)
  end
  local by_line = {}
  for _, node in ipairs(nodes) do
    by_line[node.line] = node
  end
  local function children(node)
    local list = {}
    for _, line in ipairs(is_null(node.children) and {} or node.children) do
      if by_line[line] and line ~= node.line then
        table.insert(list, by_line[line])
      end
    end
    return list
  end
  local roots = {}
  if not is_null(tree.roots) then
    for _, line in ipairs(tree.roots) do
      table.insert(roots, by_line[line])
    end
  else
    for _, node in ipairs(nodes) do
      if is_null(node.parent) or not by_line[node.parent] or node.parent == node.line then
        table.insert(roots, node)
      end
    end
  end
  local leaf = not is_null(tree.leaf) and tree.leaf or nil
  local active = {}
  for _, line in ipairs(is_null(tree.active_path) and {} or tree.active_path) do
    active[line] = true
  end

  local count = is_null(tree.entry_count) and #nodes or tree.entry_count
  local lines, targets = { header(tree, count) }, { false }
  local seen = {}
  local function lay_out(starts, depth0)
    local stack = {}
    for i = #starts, 1, -1 do
      table.insert(stack, { starts[i], depth0 })
    end
    while #stack > 0 do
      local item = table.remove(stack)
      local node, depth = item[1], item[2]
      while node and not seen[node.line] do
        seen[node.line] = true
        local next = children(node)
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
  end
  lay_out(roots, #roots > 1 and 1 or 0)
  local unreached = {}
  for _, node in ipairs(nodes) do
    if not seen[node.line] then
      table.insert(unreached, node)
    end
  end
  if #unreached > 0 then
    table.insert(lines, 'on a parentId loop (no root leads here):')
    table.insert(targets, false)
    lay_out(unreached, 1)
  end
  return { lines = lines, targets = targets }
end

--- Lines for :SessionContext: a header, then each message as "## n. role (line N)" and its text.
function M.render_context(context, line)
  local messages = is_null(context.messages) and {} or context.messages
  local lines = { string.format('# Model context from line %d: %d messages', line + 1, #messages), '' }
  if type(context.cut_short) == 'string' then
    table.insert(lines, 2, 'Mid-conversation: ' .. context.cut_short .. '.')
  end
  if type(context.refused) == 'string' then
    table.insert(lines, 2, 'The agent refuses to resume this file: ' .. context.refused .. '. Nothing is sent.')
  end
  for index, message in ipairs(messages) do
    local where = is_null(message.line) and '' or string.format(' (line %d)', message.line + 1)
    local note = (is_null(message.note) or message.note == '') and '' or (' [' .. message.note .. ']')
    table.insert(lines, string.format('## %d. %s%s%s', index, is_null(message.role) and '?' or message.role, where, note))
    for _, text in ipairs(vim.split(is_null(message.text) and '' or message.text, '\n', { plain = true })) do
      table.insert(lines, text)
    end
    table.insert(lines, '')
  end
  return lines
end

return M
