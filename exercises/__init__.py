"""你的答案：每个文件是课程的一道练习；`make grade` 批改这个文件夹。

Your answers. Each file is one exercise of the course; `make grade` grades this folder.
"""
