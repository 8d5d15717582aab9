"""R 的 ``part_of_topic`` 要问的主题：只是问题，不是答案（哪一篇讲它，要学习者自己回忆；第七篇 · 一）。
每个主题有一个名字（大写常量），它的值是英文写法，``TOPICS_ZH[值]`` 是它的中文写法：存根、答案和评分器都用
这同一套写法。一个主题只点出它的内容，不说出任何回忆题要问的事实，也不用任何一篇标题里的词（那会说出它在
哪一篇）。按字母顺序排列。

The topics R's ``part_of_topic`` is asked about: the question, not its answer (which part
covers each is for the learner to recall; part 7, §一). Each is a named constant whose value is
its English spelling; ``TOPICS_ZH[value]`` is its Chinese spelling: a stub, an answer and the
grader all refer to these spellings. A topic names its subject without stating a fact a recall
item asks for, nor a word of a part's title (which would name its part). Listed alphabetically."""

ACTIVATION_MEMORY = "activations and gradient checkpointing"
BACKWARD_AND_GRAD = "what backward() does to .grad"
BROADCASTING = "broadcasting rules"
CHAT_TEMPLATES = "chat templates and tokenizer.json"
CI95 = "ci95 of an accuracy"
CLIPPING_AND_SCHEDULE = "gradient clipping and the learning-rate schedule"
DATACLASS_CONFIGS = "@dataclass configs"
DDP_VS_FSDP = "DDP vs FSDP"
DECODE_FLOOR = "the lower bound on decode time per token"
EINSUM_ATTENTION = "einsum for attention"
FIRST_STEP_LOSS = "the expected first-step loss as an init check"
KV_CACHE = "KV cache bytes per token"
LORA_PEFT = "LoRA with peft"
MIXED_PRECISION = "bf16 vs fp16"
PANDAS_GROUPBY = "groupby error analysis"
PARAM_BYTES = "bytes per trainable parameter in training"
PROFILER_TABLE = "reading a torch.profiler table"
PROTOCOLS = "__getitem__, __call__ and other dunder methods"
ROOFLINE = "roofline and the ridge point"
RUN_RECORD = "the run record"
SEED_BANDS = "mean and shaded bands over seeds"
SFT_LOSS_MASK = "the SFT loss mask"
SFT_TRAINER = "SFTTrainer and compute_loss"
STREAMING_JSONL = "streaming a large JSONL file"
THREADS_VS_PROCESSES = "threads and processes for CPU-bound work"
TRAINING_LOOP = "the twenty-line loop"

TOPICS = tuple(sorted(value for name, value in dict(globals()).items() if name.isupper()))  # all of the above

TOPICS_ZH = {  # each topic in Chinese, in the course's words: what part_of_topic is asked too
    ACTIVATION_MEMORY: "激活与 gradient checkpointing",
    BACKWARD_AND_GRAD: "backward() 对 .grad 做了什么",
    BROADCASTING: "广播规则",
    CHAT_TEMPLATES: "chat template 与 tokenizer.json",
    CI95: "准确率的 ci95",
    CLIPPING_AND_SCHEDULE: "梯度裁剪与学习率调度",
    DATACLASS_CONFIGS: "用 @dataclass 写配置",
    DDP_VS_FSDP: "DDP 与 FSDP",
    DECODE_FLOOR: "decode 每 token 时间的下限",
    EINSUM_ATTENTION: "用 einsum 写 attention",
    FIRST_STEP_LOSS: "用第一步 loss 的期望值检查初始化",
    KV_CACHE: "KV cache 每 token 字节数",
    LORA_PEFT: "用 peft 做 LoRA",
    MIXED_PRECISION: "bf16 与 fp16",
    PANDAS_GROUPBY: "用 groupby 做错误分析",
    PARAM_BYTES: "训练时每个可训练参数的字节数",
    PROFILER_TABLE: "读 torch.profiler 表",
    PROTOCOLS: "__getitem__、__call__ 等双下划线方法",
    ROOFLINE: "roofline 与 ridge point",
    RUN_RECORD: "运行记录",
    SEED_BANDS: "多 seed 均值与阴影带",
    SFT_LOSS_MASK: "SFT 的 loss mask",
    SFT_TRAINER: "SFTTrainer 与 compute_loss",
    STREAMING_JSONL: "流式读一个大 JSONL",
    THREADS_VS_PROCESSES: "CPU 密集任务：线程与进程",
    TRAINING_LOOP: "二十行循环",
}
