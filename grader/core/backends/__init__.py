"""Judge backends: emulator (CPU), gpu (PyCUDA), dummy (tests)."""
