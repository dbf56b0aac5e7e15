// The Python side of worker.js's protocol: `run`, `call` and `preload`, defined in the
// interpreter once the rankcards archive is unpacked. build_snapshot.mjs defines the same ones in
// the memory snapshot the site ships, so a restored interpreter already has them.
export const BRIDGE = `
import json, importlib
from rankcards.runner import run_example

def run(source, on_stdout, on_stderr, on_figure, on_table):
    result = run_example(
        source, on_stdout=on_stdout, on_stderr=on_stderr, on_figure=on_figure, on_table=on_table
    )
    fatal = result.error is not None and result.error.rstrip().splitlines()[-1].startswith("MemoryError")
    return json.dumps({"ok": result.ok, "output": result.output, "error": result.error, "restart": fatal})

def preload(names):
    for name in json.loads(names):
        if name.startswith("rankcards."):
            try:
                importlib.import_module(name)
            except Exception:
                pass  # the demo's own call reports it, with its traceback

def call(target, args, progress=None):
    module_name, _, name = target.partition(":")
    if not module_name.startswith("rankcards.") or not name:
        raise ValueError(f"call target must be 'rankcards.<module>:<function>', got {target!r}")
    function = getattr(importlib.import_module(module_name), name)
    args = json.loads(args)
    if progress is not None:  # a JavaScript function: the worker posts what it is told
        args["progress"] = progress
    if isinstance(args, dict):
        value = function(**args)
    elif isinstance(args, list):
        value = function(*args)
    elif args is None:
        value = function()
    else:
        value = function(args)
    return json.dumps(value)
`;
