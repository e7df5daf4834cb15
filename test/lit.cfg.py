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

# A Python with numpy, for tests that read .npy files back (.ci/run installs
# python3-numpy). None found: the plain python3, and those tests fail loudly.
import subprocess
def _has_numpy(python):
    try:
        return subprocess.run([python, "-c", "import numpy"],
                              capture_output=True).returncode == 0
    except OSError:
        return False
numpy_python = next((p for p in ["/usr/bin/python3", shutil.which("python3")]
                     if p and _has_numpy(p)), "python3")
config.substitutions.append(("%numpy-python", numpy_python))
