"""The memories kind: remembered notes, session digests read back, and forgetting them."""
