# The PyTorch operator each kernel of the bundles named on the command line
# becomes (tilegym.torch registers it; tilegym.schema needs no torch).
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.environ["TILEGYM_PYTHON_DIR"])
import tilegym  # noqa: E402
from tilegym.schema import op_schema  # noqa: E402

for path in sys.argv[1:]:
    b = tilegym.Bundle(path)
    for k in b.kernels:
        params, defaults = b.params(k), b.defaults(k)
        for p in params:
            if p["name"] in defaults:
                p["default"] = defaults[p["name"]]
        schema, outputs, mutated = op_schema(params)
        print(f"{k}{schema} outputs {outputs} mutated {mutated}")
