from conftest import Editor
async def test_quiet(editor: Editor):
    d = await editor.open("file:///tmp/x.jsonl", '{"a": 1}\n{"b": 2}\n')
    assert d == []
