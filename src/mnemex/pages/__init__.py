"""The write side of pages and notes: add, write, append, move and delete, each with the
write rule of the generic page (knowledge and a person's own notes); other kinds refuse it."""
