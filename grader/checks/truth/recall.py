"""Set R's facts that the quiz asks too: the course's map of which part teaches each topic, and
the band a thread speedup under the GIL falls in."""

from __future__ import annotations

from grader.given import recall_topics as topic

# The course's table (part 7, §一): which part teaches each topic. The topics' one spelling is
# grader/given/recall_topics.py, which the stub shows the learner; their parts stay here, where
# no learner process can read them.
COURSE_MAP = {
    1: (topic.STREAMING_JSONL, topic.THREADS_VS_PROCESSES, topic.PROTOCOLS, topic.DATACLASS_CONFIGS),
    2: (topic.BROADCASTING, topic.EINSUM_ATTENTION, topic.PANDAS_GROUPBY, topic.CI95, topic.SEED_BANDS),
    3: (topic.TRAINING_LOOP, topic.BACKWARD_AND_GRAD, topic.CLIPPING_AND_SCHEDULE, topic.FIRST_STEP_LOSS),
    4: (topic.PARAM_BYTES, topic.ACTIVATION_MEMORY, topic.DDP_VS_FSDP, topic.MIXED_PRECISION),
    5: (topic.LORA_PEFT, topic.CHAT_TEMPLATES, topic.SFT_LOSS_MASK, topic.SFT_TRAINER),
    6: (topic.ROOFLINE, topic.DECODE_FLOOR, topic.KV_CACHE, topic.PROFILER_TABLE, topic.RUN_RECORD),
}
PART_OF = {t: part for part, topics in COURSE_MAP.items() for t in topics}
# Topics the course's table also places in a second part: each part the course states passes.
ALSO_IN = {
    topic.SFT_LOSS_MASK: (3,),  # part 3's row: ".float() / ignore_index=-100"; "ignore_index=-100 是 SFT 的 loss mask"
    topic.TRAINING_LOOP: (5,),  # part 5's row: "背后的每件事都在二十行里有位置"
}
PARTS_OF = {t: {part, *ALSO_IN.get(t, ())} for t, part in PART_OF.items()}

# Under the GIL one thread runs bytecode at a time: threads give ~1x whatever the cores (the
# course: 8 threads 0.46 s = serial 0.46 s). The band a speedup counts as ~1x in.
THREAD_SPEEDUP_BAND = (0.75, 1.33)
