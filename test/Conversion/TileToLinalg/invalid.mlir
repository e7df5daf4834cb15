// RUN: tilegym-opt %s --convert-tile-to-linalg --split-input-file --verify-diagnostics

// Grid queries exist only inside kernels.
func.func @not_a_kernel() -> index {
  // expected-error @+1 {{failed to legalize operation 'tile.block_id'}}
  %b = tile.block_id 0
  return %b : index
}
