"""Your answers. Each file is one exercise of the course; `make grade` grades this folder."""
