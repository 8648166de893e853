-- End to end in Neovim's built-in LSP client (0.7+): open a file of a project with
-- pending changes, wait for Remora's diagnostics, pick "accept" from the code action
-- menu, write the buffer. Reports to $REMORA_E2E_REPORT as JSON; exits non-zero on failure.
local root = os.getenv("REMORA_E2E_ROOT")
local report_path = os.getenv("REMORA_E2E_REPORT")
local wanted = os.getenv("REMORA_E2E_ACTION")
local report = { steps = {} }

local function finish(code)
  local file = io.open(report_path, "w")
  file:write(vim.fn.json_encode(report))
  file:close()
  vim.cmd(code == 0 and "qall!" or ("cquit " .. code))
end

local function fail(message)
  report.error = message
  finish(1)
end

vim.cmd("edit " .. root .. "/pkg/shop.py")
-- vim.lsp.start (0.8+) does start_client + buf_attach_client; Debian 12 ships 0.7.2.
local client_id = vim.lsp.start_client({
  name = "remora",
  cmd = { os.getenv("REMORA_E2E_REMORA"), "lsp" },
  root_dir = root,
  workspace_folders = { { uri = vim.uri_from_fname(root), name = "shop" } },
})
vim.lsp.buf_attach_client(0, client_id)

local got = vim.wait(30000, function() return #vim.diagnostic.get(0) >= 3 end, 50)
if not got then return fail("no diagnostics after 30 s") end
local messages = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(messages, string.format("%d:%s:%s", d.lnum, d.source or "", d.message))
end
table.sort(messages)
report.diagnostics = messages

-- The user puts the cursor on `return result` and opens the code action menu.
vim.api.nvim_win_set_cursor(0, { 16, 4 })
local offered = {}
vim.ui.select = function(items, opts, on_choice)
  for index, item in ipairs(items) do
    local title = opts.format_item and opts.format_item(item) or tostring(item)
    table.insert(offered, title)
  end
  report.offered = offered
  for index, item in ipairs(items) do
    if opts.format_item(item) == wanted then return on_choice(item, index) end
  end
  on_choice(nil, nil)
end
vim.lsp.buf.code_action()
local changed = vim.wait(30000, function()
  return table.concat(vim.api.nvim_buf_get_lines(0, 0, -1, false), "\n"):find("round%(result, 2%)") ~= nil
end, 50)
if not changed then return fail("the buffer never changed; offered: " .. vim.inspect(offered)) end
vim.cmd("write")
-- The queue recorded the accept: the diagnostics of that change go.
vim.wait(10000, function()
  for _, d in ipairs(vim.diagnostic.get(0)) do
    if d.message:find("^docstring") then return false end
  end
  return true
end, 50)
local left = {}
for _, d in ipairs(vim.diagnostic.get(0)) do table.insert(left, d.message) end
report.left = left
finish(0)
