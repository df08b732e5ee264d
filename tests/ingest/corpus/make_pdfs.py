"""Write the corpus's two PDFs (05 and 11) with tests/ingest/pdfgen.py.

Run from anywhere: ``.venv/bin/python tests/ingest/corpus/make_pdfs.py``. The PDFs are
committed too, so tests do not depend on running this; rerun it after editing the text.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from pdfgen import make_text_pdf  # noqa: E402

TIDEWATER = [
    "Tidewater: a log-structured merge tree for embedded time-series storage",
    "P. Raman and M. Oyelaran, Systems Lab, Northgate Institute of Technology",
    "Abstract. Tidewater is the storage engine of KestrelDB, an embedded time-series database. "
    "It is a log-structured merge tree whose segments are partitioned by time, so that a "
    "retention policy can drop expired data by deleting whole files. This paper describes its "
    "design and measures it on the Raman Benchmark.",
    "1. Introduction. Time-series data is written in time order and read in ranges. A general "
    "key-value store wastes effort on this workload: it compacts data that will never be "
    "overwritten and keeps indexes for point lookups that nobody makes. Tidewater was built "
    "for the way sensor data is actually used.",
    "2. Design. Every write is first appended to the write-ahead log. Points are then buffered "
    "in a memory table, sorted by series and time, and flushed to an immutable segment when the "
    "table is full. Segments cover a fixed time window, one hour by default. Compaction merges "
    "small segments of the same window into larger ones and never merges across windows.",
    "3. Compression. Timestamps are stored with delta-of-delta encoding, which turns regular "
    "sampling intervals into runs of zeros. Values are stored per column. Columnar compression "
    "was added in Kestrel 2.0; the first version of Tidewater stored rows.",
    "4. Durability. The write-ahead log uses group commit: many writers share one fsync. A "
    "batch is acknowledged only after its log record is on disk. Recovery replays the log from "
    "the last checkpoint.",
    "5. Evaluation. On the ingest workload of the Raman Benchmark, Tidewater sustains 1.9 "
    "million points per second on a laptop. The cold-read workload is slower than in a row "
    "store, because a read must touch several columns.",
    "6. Conclusion. Tidewater shows that an embedded database can offer durable, compact "
    "time-series storage without a server. Priya Raman and Marcus Oyelaran thank the Northgate "
    "Institute of Technology for its support.",
]

AUDIT = [
    "Security audit of KestrelDB 1.4",
    "Quillon Security, for the Open Telemetry Data Foundation",
    "Summary. Quillon Security audited KestrelDB 1.4 and the Perch command-line client between "
    "June and August 2022, at the request of the Open Telemetry Data Foundation. The audit was "
    "led by Daniel Okafor. We found two high-severity issues, three medium-severity issues and "
    "several low-severity issues.",
    "Finding 1 (high). The write-ahead log could replay a half-written batch after a power cut, "
    "because the length of a log record was written before its checksum was verified. An "
    "attacker with control of the power supply, or simply bad luck, could corrupt a database. "
    "Fixed in Kestrel 2.0 by checking the checksum of every record before replay.",
    "Finding 2 (high). Perch followed symbolic links when importing a folder of CSV files, so "
    "an import could read files outside the folder the user named. Fixed in Perch 2.0.",
    "Finding 3 (medium). KesQL string literals were not length-checked, and a very long literal "
    "could exhaust memory in the query planner.",
    "Finding 4 (medium). The retention policy could be set to zero by a query, which deleted "
    "all data at the next compaction without confirmation.",
    "Conclusion. D. Okafor found the maintainers responsive and the code base in good order. "
    "The Tidewater storage engine was written with care, and most findings concern the edges "
    "of the system rather than its core. Kestrel 1.0 was released in March 2019, and the "
    "project's security record since then has been good.",
]


def main() -> None:
    (HERE / "05-tidewater-paper.pdf").write_bytes(
        make_text_pdf(
            TIDEWATER,
            title="Tidewater: a log-structured merge tree for embedded time-series storage",
            author="P. Raman; M. Oyelaran",
            creation_date="20200615",
        )
    )
    (HERE / "11-security-audit-2022.pdf").write_bytes(
        make_text_pdf(
            AUDIT,
            title="Security audit of KestrelDB 1.4",
            author="Daniel Okafor",
            creation_date="20220905",
        )
    )


if __name__ == "__main__":
    main()
