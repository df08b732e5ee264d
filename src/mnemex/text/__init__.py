"""Text rules shared by every layer: sanitising, redacting secrets, counting and cutting
tokens, reading dates. Imports nothing of mnemex but ``errors`` and ``config``."""
