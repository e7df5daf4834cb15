import os
import lit.formats
from lit.llvm import llvm_config

config.name = "TileGym"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".tile", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.tilegym_obj_root, "test")

config.substitutions.append(("%examples", os.path.join(config.tilegym_src_root, "examples")))
config.substitutions.append(("%srcroot", config.tilegym_src_root))
config.substitutions.append(("%objroot", config.tilegym_obj_root))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.tilegym_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(
    ["tilegym-opt", "tilegym-cc", "tilegym-run"], [config.tilegym_tools_dir])

# ptxas (CUDA toolkit), for tests of the GPU code's resources: as the
# compiler finds it (PATH, $CUDA_HOME/bin, /usr/local/cuda/bin).
import shutil
ptxas = shutil.which("ptxas") or next(
    (p for p in [os.path.join(os.environ.get("CUDA_HOME", ""), "bin", "ptxas"),
                 "/usr/local/cuda/bin/ptxas"] if os.access(p, os.X_OK)), None)
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
