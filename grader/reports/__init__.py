"""What a grade looks like: the terminal report, grade-report.json (Gradescope's schema) and
grade-report.html. Check side."""
