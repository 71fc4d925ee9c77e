"""The pictures and the page of `roseking report` (needs the `[report]` extra: matplotlib, numpy)."""
