"""The PyTorch operator schema of a TileGym kernel, from its signature
(tilegym.Bundle.params with the source's defaults). Needs no torch:
tilegym.torch registers what this describes.
"""


def op_schema(params):
    """The operator for a kernel signature (Bundle.params, scalars with
    their "default"): its schema string; the views it returns, each with
    where its sizes come from, an int (static) or (input view's name,
    axis); and the views it mutates, in the schema order:
    - a view the kernel only writes is returned when each of its sizes is
      static or a dimension name some view it reads has too;
    - one it reads and writes, or writes with a size not known so, is an
      argument the operator mutates;
    - the other views are arguments; scalars are float, int or bool, with
      their defaults where every scalar after them has one."""
    writes = ("write", "readwrite")
    reads = [p for p in params if p["kind"] == "view" and
             p.get("access") not in writes]
    dims = {}
    for p in reads:
        for axis, name in enumerate(p.get("dims", [])):
            if name and name not in dims:
                dims[name] = (p["name"], axis)
    outputs, mutated = {}, set()
    for p in params:
        if p["kind"] != "view" or p.get("access") not in writes:
            continue
        shape = []
        for axis in range(p["rank"]):
            name = (p.get("dims") or [""] * p["rank"])[axis]
            if p["sizes"][axis] >= 0:
                shape.append(p["sizes"][axis])
            elif name in dims:
                shape.append(dims[name])
            else:
                shape = None
                break
        if p.get("access") == "write" and shape is not None:
            outputs[p["name"]] = shape
        else:
            mutated.add(p["name"])
    # Defaults only on the trailing scalars: a schema argument without a
    # default may not follow one with.
    inputs = [p for p in params if p["name"] not in outputs]
    trailing = set()
    for p in reversed(inputs):
        if p["kind"] != "scalar" or p.get("default") is None:
            break
        trailing.add(p["name"])
    args, alias = [], 0
    for p in inputs:
        if p["kind"] == "view":
            if p["name"] in mutated:
                # Alias sets a, b, ..., z, a1, b1, ...
                tag = chr(ord("a") + alias % 26) + (
                    str(alias // 26) if alias >= 26 else "")
                args.append(f"Tensor({tag}!) {p['name']}")
                alias += 1
            else:
                args.append(f"Tensor {p['name']}")
            continue
        kind = ("float" if p["dtype"] in ("f8e4m3", "f8e5m2", "f16", "bf16",
                                          "f32", "f64") else
                "bool" if p["dtype"] == "i1" else "int")
        arg = f"{kind} {p['name']}"
        if p["name"] in trailing:
            default = str(p["default"])
            if kind == "bool":
                default = "True" if default in ("1", "true") else "False"
            arg += f"={default}"
        args.append(arg)
    ret = ("()" if not outputs else "Tensor" if len(outputs) == 1 else
           "(" + ", ".join(["Tensor"] * len(outputs)) + ")")
    return f"({', '.join(args)}) -> {ret}", outputs, sorted(mutated)
