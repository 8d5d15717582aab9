"""The course's own words, copied verbatim from part 7 (review and self-test) by
scripts/extract_course_text.py: questions and answers ("答案") of §五 A/B/C, C's key points
("答案要点"), follow-up directions ("追问方向") and the must-remember lines ("必记") of §二.
Do not edit by hand: regenerate, and the quiz's templates are tested against these."""

PARTS_SENTENCE = (
    "第一篇讲训练代码里那一小撮 Python 语法与流式过语料，第二篇在 NumPy 上建立形状直觉并用 Pandas、Matplotlib 看结果，"
    "第三篇写出二十行训练循环，第四篇算这个循环要多少显存，第五篇用 Hugging Face 的六个库组装一次真实的 LoRA SFT，"
    "第六篇解释为什么快为什么慢、怎么让实验三个月后还能复现。"
)

QUESTIONS = {
    "A1": "一份 8 GB 的 JSONL，机器内存 32 GB。json.loads 后读成 list 能不能装下？用生成器峰值大约多少？",
    "A2": "x = torch.zeros(16, 512, 1024, dtype=torch.bfloat16)：x.nbytes 多少？x[:, -1] 与 x[:, -1:] 各是什么形状？",
    "A3": "(8, 1, 64) + (16, 64) 能广播吗？结果什么形状？",
    "A4": (
        "第三篇的手算例子 \\(w = 3\\)、\\(x = 2\\)、\\(L = (wx - 1)^2\\)，每次重新前向、连续 backward() 三次而不 "
        "zero_grad，w.grad 是多少？"
    ),
    "A5": "用 Qwen2.5-0.5B（词表 151936）从头初始化训练，第一步 loss 应约多少？看到 15.0 说明什么？",
    "A6": "一个 3B 模型全量微调（bf16 + AdamW）不算激活要多少显存？一张 24 GB 的卡够不够？改成可训练 1% 的 LoRA 呢？",
    "A7": "Llama-3-8B 微调，\\(B = 2\\)、\\(T = 8192\\)，不开 checkpointing 的激活约多少？开了呢？",
    "A8": "第五篇的 0.5B 模型 \\(r = 16\\) 时可训练 8.80M、训练状态 141 MB；把 r 改成 32，两者各变成多少？",
    "A9": "Llama-3-8B bf16 推理，128 个并发请求、每个 4K 上下文，KV cache 多大？加上权重能不能放进一张 80 GB 卡？",
    "A10": "一步训练墙钟 300 ms，profiler 表里 CUDA 时间合计 90 ms、aten::mm 与 attention 占其中 60%。瓶颈最可能在哪？",
    "B1": (
        "8B LoRA SFT 在一张 80 GB 卡上，账算出 16.7 GB，但 SFTConfig 里 max_length=8192、每卡 batch 4 时 OOM。"
        "哪一块爆了？改什么？"
    ),
    "B2": "两次”同样配置”的 SFT，评测差 0.5 个点，同事说新配置更好。用哪几篇的什么判断？",
    "B3": "微调后的模型回答正确但一直不停、吐乱码。从哪一行、哪个文件查？",
    "B4": (
        "第五篇那个 Qwen2.5-0.5B merge_and_unload 后部署在 H100 上，batch 1 decode 每 token "
        "的下限约多少？合并前后这个数字变不变？"
    ),
    "B5": (
        "用 accelerate launch 在 8 卡上跑 8B LoRA SFT，DDP 模式。"
        "每张卡显存约多少？为什么每张卡是一个进程而不是一个线程？有效 batch 是多少？"
    ),
    "C1": "让你微调一个 70B 模型，全量还是 LoRA、几张 80 GB 卡？把账算给我看。",
    "C2": "训练 loss 不降或第一步就异常，你排查的顺序是什么？",
    "C3": "为什么 LLM 推理 batch 大才快？量化为什么对推理有效、对训练用处不大？",
    "C4": "CUDA out of memory，你怎么定位落在哪一块？",
    "C5": "不用 Trainer 写一个 LLM 的训练循环，哪几行是 MNIST 教程里没有的、各在防什么？",
    "C6": "你的实验结论要让人信，从设计到记录你会做哪些事？",
    "C7": "一份 10 GB 的 JSONL 要清洗、去重、tokenize，机器 16 GB 内存 8 核，怎么做到又快又不爆内存？",
}

ANSWERS = {
    "A1": (
        "按第一篇实测的 5 倍（5.3 倍）算，list 要约 40 GB，装不下；生成器峰值与文件大小无关，"
        "只有一条记录加去重的哈希集合，几十 MB。"
    ),
    "A2": (
        "\\(16 \\times 512 \\times 1024 \\times 2 = 16\\) MiB（bf16 每元素 2 字节）；x[:, -1] 整数索引消灭一维得 (16, "
        "1024)，x[:, -1:] 切片保留得 (16, 1, 1024)。"
    ),
    "A3": (
        "能。右对齐：64 对 64 相等；1 对 16，是 1 的被复制成 16；8 对缺失，当 1。结果 (8, 16, 64)"
        "——注意它悄悄多出一个维度，是”能跑但错”的典型。"
    ),
    "A4": (
        "单次梯度 \\(2(wx - 1) \\cdot x = 20\\)，累加三次是 60——Autograd 累加语义；这就是梯度累积不需要额外代码的原因。"
    ),
    "A5": (
        "\\(\\ln 151936 \\approx 11.9\\)；15.0 明显偏高，初始 logits 太大，检查输出层初始化（第三篇：第一步 loss ≈ "
        "\\(\\ln V\\) 的 sanity check）。"
    ),
    "A6": (
        "\\(3 \\times 16 = 48\\) GB，24 GB 不够；LoRA：冻结 bf16 \\(3 \\times 2 = 6\\) GB + \\(0.03\\text{B} \\times "
        "16 = 0.48\\) GB ≈ 6.5 GB，够，余下的留给激活。"
    ),
    "A7": (
        "第四篇 \\(B = 1\\)、\\(T = 4096\\) 约 16.5 GiB，与 \\(B \\times T\\) 成正比，×4 得约 66 GiB；开 checkpointing "
        "只存每层输入（\\(B = 1\\)、\\(T = 4096\\) 时 1.0 GiB），×4 约 4 GiB，代价多约 30% 计算。"
    ),
    "A8": (
        "LoRA 参数量 \\(r(m + n)\\) 随 \\(r\\) 线性：17.6M（约 3.6%），训练状态 \\(17.6\\text{M} \\times 16 \\approx "
        "282\\) MB；冻结基座不变。"
    ),
    "A9": (
        "\\(131\\ \\text{KB} \\times 4096 \\times 128 \\approx 68.7\\) GB；加 16 GB 权重约 85 GB，放不下——要减并发、"
        "缩上下文或量化 KV cache。"
    ),
    "A10": (
        "GPU 空转 70%——GPU 时间加起来远小于墙钟时间，是数据加载、同步（如每步 .item()）或 launch 开销在等；GEMM 与 "
        "attention 占 60% 说明 GPU 上跑的那部分本身正常。"
    ),
    "B1": (
        "第四篇：16.7 GB 只是参数与状态，激活与参数量无关、与 \\(B \\times T\\) 成正比——\\(B = 1\\)、\\(T = 4096\\) 约 "
        "16.5 GiB，\\(B = 4\\)、\\(T = 8192\\) 是 8 倍约 132 GiB；”加了 LoRA 还 OOM 不是参数的问题，看激活”。改法："
        "model.gradient_checkpointing_enable()（第四篇，多约 30% 计算）、减 batch 用梯度累积补（第三篇：累加语义）、"
        "或缩短序列 / 开 packing（第五篇）。"
    ),
    "B2": (
        "第六篇：先查七项里有没有哪一项其实不同（commit、数据版本、环境、seed），并且 20 步训练里换 seed 就差 0.14，"
        "单个数字不算结论；第二篇：跑几个 seed 报均值与标准差、画阴影带，两条带不重叠才算差别；对评测表带上 ci95 \\(= "
        "1.96\\sqrt{\\hat p(1 - \\hat p)/n}\\)，再用 merge + query 看退化与改善的是哪些题，而不是只看总分。"
    ),
    "B3": (
        "第五篇：0.5B 实测就是这样——答案学会了但没在 <|im_end|> 停，因为结束符进 loss 的次数太少；"
        "推理时也要用与训练相同的 chat template。第三篇：loss 在哪一行决定——cross_entropy(..., ignore_index=-100)，"
        "label 为 −100 的位置不算 loss，所以要确认结束符没有被 mask 成 −100。去读 trl/trainer/sft_trainer.py "
        "的数据处理 / collator，搜 completion_only_loss 或 -100（第五篇的入口）。"
    ),
    "B4": (
        "第五篇：494M 参数、合并后推理零开销；第四篇：推理只有一份 bf16 权重，\\(494\\text{M} \\times 2 \\approx "
        "0.99\\) GB；第六篇：decode 是 memory-bound，\\(0.99\\ \\text{GB} / 3.35\\ \\text{TB/s} \\approx 0.3\\) ms。"
        "合并前 LoRA 分支多读 \\(A, B\\)（8.80M × 2 字节，可忽略）并多几个小算子（第六篇的 launch 开销），"
        "合并后才是”零开销”。"
    ),
    "B5": (
        "第四篇：DDP 每卡一份完整模型与状态，16.7 GB + 激活，8 卡 all-reduce 梯度，数学上等价于 8 倍 batch；第一篇："
        "GIL 让线程不能并行执行 Python 字节码，所以每个 rank 是独立进程、进程间不共享内存，"
        "只通过集合通信交换梯度（第四篇）；第五篇：accelerate 统一 DDP / FSDP 的启动，就是 torchrun "
        "--nproc_per_node=8。"
    ),
    "C1": (
        "答案要点：(1) 第一道约束是显存不是效果——每个可训练参数 16 字节（2 + 2 + 4 + 4 + 4）；(2) 全量 \\(70 \\times "
        "16 = 1120\\) GB，8 卡 640 GB 不够，要 16 卡以上 + FSDP 切状态；(3) LoRA 冻结 bf16 140 GB + 可训练部分的 16 "
        "字节（1.3% 时约 14.6 GB）≈ 155 GB，两张卡起；(4) 激活账外：与 \\(B \\times T \\times\\) 层数 \\(\\times d\\) "
        "成正比，长序列开 gradient checkpointing 多约 30% 计算；(5) DDP 的前提是放得进一张卡，放不进就 FSDP；跑后 "
        "max_memory_allocated() 对账。 追问方向：QLoRA 能省到多少（4 bit 约 0.5 字节 / 参数）；推理为什么只有 1/8；"
        "张量 / 流水并行什么时候才需要。 好答案与一般答案的区别：一般答案说”70B 肯定得 LoRA”；好答案把 16 "
        "字节拆成五份、代入数字、再指出激活那块不在这笔账里。"
    ),
    "C2": (
        "答案要点：(1) 第一步 loss 该 ≈ \\(\\ln V\\)（词表 128 是 4.85、32000 是 10.4），明显偏高是输出层初始化；(2) "
        "形状——沿错轴的 softmax、view(-1, V) 与 labels.view(-1) 对不上都不报错，loss 前 assert 形状；(3) "
        "二十行里少了哪一样：zero_grad（累加语义）、.float()（bf16 下 softmax 丢精度）、ignore_index=-100（prompt "
        "被当目标）、clip_grad_norm_、warmup、sched.step()；(4) 用高层封装时回到二十行想它在哪一行做了不同的事，再从 "
        "compute_loss 往下读源码；(5) 用对数 x 轴看前 1% 步、多 seed 排除运气。 追问方向：grad_norm "
        "曲线该长什么样（脚本里 0.3 上下、第一步 2.0）；autocast 在 CPU 上为什么反而慢。 好答案与一般答案的区别："
        "一般答案说”调学习率试试”；好答案先用 \\(\\ln V\\) 与形状排除最便宜的两类错，再逐行对二十行。"
    ),
    "C3": (
        "答案要点：(1) 两个上限：算力 989 TFLOPS、带宽 3.35 TB/s，ridge ≈ 295 FLOP/字节；(2) decode 每 token "
        "读全部权重、每个权重 2 次运算，强度 1，memory-bound，batch 1 下限 16.06 GB / 3.35 TB/s ≈ 4.8 ms；(3) batch "
        "\\(B\\) 时权重读一次被 \\(B\\) 个 token 共享，强度变 \\(B\\)，搬的时间不变、算的时间线性涨，到 ridge "
        "前吞吐几乎线性涨（128 时 26700 token/s）；(4) 量化把读的字节降到 1/4，memory-bound 的时间也降 1/4；(5) 训练与 "
        "prefill 强度数千，compute-bound，读权重不是瓶颈，且反向要高精度梯度；KV cache 131 KB/token 随并发涨，是 batch "
        "做不大的原因之一。 追问方向：MoE 为什么推理特别难（FLOPs 降但全部专家权重都要读）；MFU 40–50% 剩下的去哪了；"
        "prefill 67 ms 怎么算的。 好答案与一般答案的区别：一般答案说”GPU 并行度高”；好答案用算术强度把 decode 放到 "
        "roofline 的斜线上，并说出 ridge 之后为什么不再涨。"
    ),
    "C4": (
        "答案要点：(1) 四块：权重、梯度与优化器状态（14 字节 / 可训练参数）、激活、KV cache；(2) 按爆的时机归因："
        "加载就爆是权重，第一步 backward 爆是状态，序列变长爆是激活（训练）或 KV cache（推理），生成时爆是忘了 no_grad "
        "或并发太高；(3) 加了 LoRA 还爆不是参数的问题，看激活；reserved 远大于 allocated 是碎片；(4) 对症：换 bf16 / "
        "量化 / 更多卡、LoRA / FSDP / 8-bit 优化器、checkpointing / 减 batch / 缩序列、减并发；(5) 跑前按账算、跑后 "
        "max_memory_allocated() 对。 追问方向：激活 16.5 GiB 怎么估的（每层约 6 份 \\(d\\) 维 + 3 份 \\(d_{ff}\\) 维 "
        "bf16）；FSDP 与 DDP 每卡各多少；KV cache 公式与 GQA。 好答案与一般答案的区别：一般答案说”减 batch”；"
        "好答案先归到四块之一，再给对应那块的手段，并能用数字预测减 batch 够不够。"
    ),
    "C5": (
        "答案要点：(1) 骨架五行：前向、loss、backward、step、zero_grad；(2) autocast(bfloat16)：矩阵乘在 bf16、"
        "reduction 留 fp32，不开显存与速度差一倍多；(3) .float() + ignore_index=-100：softmax 在 fp32 上算、prompt 与 "
        "padding 不算 loss——SFT 的 loss mask；(4) clip_grad_norm_(1.0)：某一步坏梯度让 loss 冲上去回不来；(5) warmup + "
        "cosine 调度：不 warmup 前几步可能发散；(6) SFTTrainer 的六件事各落在这几行的哪一行（chat template 在 "
        "__getitem__、mask 在 −100、packing 在 collate_fn、LoRA 在 requires_grad）。 追问方向："
        "梯度累积怎么写（累加语义，每 \\(k\\) 个 batch 才 step）；Trainer 的 compute_loss / training_step 对应哪几行；"
        "为什么 model(x) 不是 model.forward(x)。 好答案与一般答案的区别：一般答案背五行；"
        "好答案说出多出的四样各防什么事故，并能把 SFTTrainer 映射回来。"
    ),
    "C6": (
        "答案要点：(1) 多 seed 报均值与标准差，画均值加阴影带，不重叠才算差别（脚本里差 0.30 约 1.7 个标准差；20 "
        "步里换 seed 差 0.14）；(2) 评测表带 ci95，80 道题的 ±10.9 分辨不出 5 个点；(3) merge + query "
        "列出退化与改善的题逐道看，不只看总分；(4) 七项记录 run id、commit、配置、数据版本、seed、环境、指标一行齐全，"
        "配置用 dataclass + asdict 存进 run 目录，pip freeze 锁环境；(5) 同 seed 两次一致是前提（GPU 上某些 kernel "
        "非确定，需要 use_deterministic_algorithms）；前 200 步两条带重叠时不说”收敛更快”。 追问方向：W&B / Hydra / "
        "git 各管七项里哪一项；数据版本怎么定义（文件 hash 或 datasets revision）；”当时好像是这样”的实验怎么补救。 "
        "好答案与一般答案的区别：一般答案说”用 W&B 记一下”；好答案先说方差与置信区间决定结论能不能下，"
        "再说七项缺一项结论就不成立。"
    ),
    "C7": (
        "答案要点：(1) 不能读成 list——5 倍文件大小约 50 GB；生成器逐行读，读 → 过滤 → 去重 → "
        "统计每步一个生成器串成流水线，内存里只有一条记录加去重的哈希集合；(2) CPU 密集的部分用 multiprocessing.Pool "
        "不用线程（GIL：8 线程 1.0×，8 进程 3.1×），chunksize 让每次传一批以摊薄 pickle 开销，函数要模块顶层可导入；(3)"
        " 工业版直接用 datasets：streaming=True（所以没有 len()）、.filter() / .map(batched=True, num_proc=8)，"
        "底层是同一套生成器与进程池；(4) 精确去重靠内容哈希集合，近似去重（MinHash）不在本系列；(5) "
        "输出与数据版本（hash）一起记录，数据变了就是另一个实验。 追问方向：为什么进程到不了 8×；"
        "DataLoader(num_workers) 与它的关系；.map() 为什么不立即执行。 好答案与一般答案的区别：一般答案说”用 pandas "
        "分块读”；好答案说出内存为什么是 5 倍、线程为什么无用、以及 datasets 在底层做的就是这两件事。"
    ),
}

C_POINTS = {
    "C1": [
        "第一道约束是显存不是效果——每个可训练参数 16 字节（2 + 2 + 4 + 4 + 4）",
        "全量 \\(70 \\times 16 = 1120\\) GB，8 卡 640 GB 不够，要 16 卡以上 + FSDP 切状态",
        "LoRA 冻结 bf16 140 GB + 可训练部分的 16 字节（1.3% 时约 14.6 GB）≈ 155 GB，两张卡起",
        (
            "激活账外：与 \\(B \\times T \\times\\) 层数 \\(\\times d\\) 成正比，长序列开 gradient checkpointing 多约 "
            "30% 计算"
        ),
        "DDP 的前提是放得进一张卡，放不进就 FSDP；跑后 max_memory_allocated() 对账。",
    ],
    "C2": [
        "第一步 loss 该 ≈ \\(\\ln V\\)（词表 128 是 4.85、32000 是 10.4），明显偏高是输出层初始化",
        "形状——沿错轴的 softmax、view(-1, V) 与 labels.view(-1) 对不上都不报错，loss 前 assert 形状",
        (
            "二十行里少了哪一样：zero_grad（累加语义）、.float()（bf16 下 softmax 丢精度）、ignore_index=-100（prompt "
            "被当目标）、clip_grad_norm_、warmup、sched.step()"
        ),
        "用高层封装时回到二十行想它在哪一行做了不同的事，再从 compute_loss 往下读源码",
        "用对数 x 轴看前 1% 步、多 seed 排除运气。",
    ],
    "C3": [
        "两个上限：算力 989 TFLOPS、带宽 3.35 TB/s，ridge ≈ 295 FLOP/字节",
        (
            "decode 每 token 读全部权重、每个权重 2 次运算，强度 1，memory-bound，batch 1 下限 16.06 GB / 3.35 TB/s ≈ "
            "4.8 ms"
        ),
        (
            "batch \\(B\\) 时权重读一次被 \\(B\\) 个 token 共享，强度变 \\(B\\)，搬的时间不变、算的时间线性涨，到 "
            "ridge 前吞吐几乎线性涨（128 时 26700 token/s）"
        ),
        "量化把读的字节降到 1/4，memory-bound 的时间也降 1/4",
        (
            "训练与 prefill 强度数千，compute-bound，读权重不是瓶颈，且反向要高精度梯度；KV cache 131 KB/token "
            "随并发涨，是 batch 做不大的原因之一。"
        ),
    ],
    "C4": [
        "四块：权重、梯度与优化器状态（14 字节 / 可训练参数）、激活、KV cache",
        (
            "按爆的时机归因：加载就爆是权重，第一步 backward 爆是状态，序列变长爆是激活（训练）或 KV cache（推理），"
            "生成时爆是忘了 no_grad 或并发太高"
        ),
        "加了 LoRA 还爆不是参数的问题，看激活；reserved 远大于 allocated 是碎片",
        "对症：换 bf16 / 量化 / 更多卡、LoRA / FSDP / 8-bit 优化器、checkpointing / 减 batch / 缩序列、减并发",
        "跑前按账算、跑后 max_memory_allocated() 对。",
    ],
    "C5": [
        "骨架五行：前向、loss、backward、step、zero_grad",
        "autocast(bfloat16)：矩阵乘在 bf16、reduction 留 fp32，不开显存与速度差一倍多",
        ".float() + ignore_index=-100：softmax 在 fp32 上算、prompt 与 padding 不算 loss——SFT 的 loss mask",
        "clip_grad_norm_(1.0)：某一步坏梯度让 loss 冲上去回不来",
        "warmup + cosine 调度：不 warmup 前几步可能发散",
        (
            "SFTTrainer 的六件事各落在这几行的哪一行（chat template 在 __getitem__、mask 在 −100、packing 在 "
            "collate_fn、LoRA 在 requires_grad）。"
        ),
    ],
    "C6": [
        (
            "多 seed 报均值与标准差，画均值加阴影带，不重叠才算差别（脚本里差 0.30 约 1.7 个标准差；20 步里换 seed 差 "
            "0.14）"
        ),
        "评测表带 ci95，80 道题的 ±10.9 分辨不出 5 个点",
        "merge + query 列出退化与改善的题逐道看，不只看总分",
        (
            "七项记录 run id、commit、配置、数据版本、seed、环境、指标一行齐全，配置用 dataclass + asdict 存进 run "
            "目录，pip freeze 锁环境"
        ),
        (
            "同 seed 两次一致是前提（GPU 上某些 kernel 非确定，需要 use_deterministic_algorithms）；前 200 "
            "步两条带重叠时不说”收敛更快”。"
        ),
    ],
    "C7": [
        (
            "不能读成 list——5 倍文件大小约 50 GB；生成器逐行读，读 → 过滤 → 去重 → 统计每步一个生成器串成流水线，"
            "内存里只有一条记录加去重的哈希集合"
        ),
        (
            "CPU 密集的部分用 multiprocessing.Pool 不用线程（GIL：8 线程 1.0×，8 进程 3.1×），chunksize "
            "让每次传一批以摊薄 pickle 开销，函数要模块顶层可导入"
        ),
        (
            "工业版直接用 datasets：streaming=True（所以没有 len()）、.filter() / .map(batched=True, num_proc=8)，"
            "底层是同一套生成器与进程池"
        ),
        "精确去重靠内容哈希集合，近似去重（MinHash）不在本系列",
        "输出与数据版本（hash）一起记录，数据变了就是另一个实验。",
    ],
}

C_FOLLOWUPS = {
    "C1": "QLoRA 能省到多少（4 bit 约 0.5 字节 / 参数）；推理为什么只有 1/8；张量 / 流水并行什么时候才需要。",
    "C2": "grad_norm 曲线该长什么样（脚本里 0.3 上下、第一步 2.0）；autocast 在 CPU 上为什么反而慢。",
    "C3": "MoE 为什么推理特别难（FLOPs 降但全部专家权重都要读）；MFU 40–50% 剩下的去哪了；prefill 67 ms 怎么算的。",
    "C4": (
        "激活 16.5 GiB 怎么估的（每层约 6 份 \\(d\\) 维 + 3 份 \\(d_{ff}\\) 维 bf16）；FSDP 与 DDP 每卡各多少；KV "
        "cache 公式与 GQA。"
    ),
    "C5": (
        "梯度累积怎么写（累加语义，每 \\(k\\) 个 batch 才 step）；Trainer 的 compute_loss / training_step 对应哪几行；"
        "为什么 model(x) 不是 model.forward(x)。"
    ),
    "C6": (
        "W&B / Hydra / git 各管七项里哪一项；数据版本怎么定义（文件 hash 或 datasets revision）；"
        "”当时好像是这样”的实验怎么补救。"
    ),
    "C7": "为什么进程到不了 8×；DataLoader(num_workers) 与它的关系；.map() 为什么不立即执行。",
}

C_GOOD = {
    "C1": (
        "好答案与一般答案的区别：一般答案说”70B 肯定得 LoRA”；好答案把 16 字节拆成五份、代入数字、"
        "再指出激活那块不在这笔账里。"
    ),
    "C2": (
        "好答案与一般答案的区别：一般答案说”调学习率试试”；好答案先用 \\(\\ln V\\) 与形状排除最便宜的两类错，"
        "再逐行对二十行。"
    ),
    "C3": (
        "好答案与一般答案的区别：一般答案说”GPU 并行度高”；好答案用算术强度把 decode 放到 roofline 的斜线上，并说出 "
        "ridge 之后为什么不再涨。"
    ),
    "C4": (
        "好答案与一般答案的区别：一般答案说”减 batch”；好答案先归到四块之一，再给对应那块的手段，并能用数字预测减 "
        "batch 够不够。"
    ),
    "C5": "好答案与一般答案的区别：一般答案背五行；好答案说出多出的四样各防什么事故，并能把 SFTTrainer 映射回来。",
    "C6": (
        "好答案与一般答案的区别：一般答案说”用 W&B 记一下”；好答案先说方差与置信区间决定结论能不能下，"
        "再说七项缺一项结论就不成立。"
    ),
    "C7": (
        "好答案与一般答案的区别：一般答案说”用 pandas 分块读”；好答案说出内存为什么是 5 倍、线程为什么无用、以及 "
        "datasets 在底层做的就是这两件事。"
    ),
}

MUST_REMEMBER = {
    1: [
        (
            "19.4 MB 的 JSONL 读成 list 峰值 102.9 MB（文件大小的 5.3 倍），生成器 11.5 MB 且与文件大小无关；按 5 "
            "倍算，10 GB 读成 list 要 50 GB。"
        ),
        (
            "10 万行 CPU 密集预处理：串行 0.46 s、8 线程 0.46 s（1.0×）、8 进程 0.15 s（3.1×）；差在进程启动与 pickle，"
            "chunksize 是最重要的旋钮。"
        ),
        (
            "六个语法 ↔ 六个 API：__len__ / __getitem__ ↔ Dataset；生成器 ↔ DataLoader；__call__ → forward ↔ "
            "nn.Module；装饰器 ↔ @torch.no_grad()；上下文管理器 ↔ with autocast；**kwargs ↔ 配置透传。"
        ),
        (
            "traceback 最后一行是错、往上第一帧是位置、找自己文件的最后一帧；形状 / 设备 / 类型三类错各有第一反应；"
            "import torch 出问题先怀疑环境。"
        ),
    ],
    2: [
        (
            "广播三条规则：右对齐；每维相等或其中一个是 1；为 1 的被复制。(4, 3) + (4,) 报错，(4, 3) + (4, 1) "
            "是每行一个标量；(32, 128, 4096) 的 float32 是 64 MiB。"
        ),
        '\\(QK^T\\) 是 "btd,bsd->bts"，\\(PV\\) 是 "bts,bsd->btd"；带 head 是 "bhtd,bhsd->bhts"。',
        "对数值的标准：float32 约 \\(10^{-6}\\)、float64 约 \\(10^{-12}\\)，不是”看起来差不多”。",
        (
            "ci95 \\(= 1.96\\sqrt{\\hat p(1 - \\hat p)/n}\\)：530 题的评测里 algebra +7.5 超过 ±5.8 可信，"
            "combinatorics +5.0 在 ±10.9 里分辨不出，80 道题不够。"
        ),
        (
            "第一步 loss 该是 \\(\\ln V\\)（图里 7.2 对应 \\(V \\approx 1300\\)）；5 个 seed 的均值差 0.30、约 1.7 "
            "个标准差（seed 间标准差 0.179），两条阴影带后期不重叠才算差别。"
        ),
    ],
    3: [
        (
            "手算例子 \\(w = 3\\)、\\(x = 2\\)、\\(L = (wx - 1)^2\\)，w.grad \\(= 2(wx - 1) \\cdot x = 20\\)；第二次 "
            "backward 报错因为图已释放，每次前向建新图。"
        ),
        (
            "二十行里的对应：autocast(bfloat16) 是混合精度、view(-1, V) 是 reshape、.float() 是 softmax 的数值、"
            "ignore_index=-100 是 SFT 的 loss mask、clip_grad_norm_(1.0) 是梯度裁剪、zero_grad(set_to_none=True) "
            "省一次显存写、.item() 每 10 步一次因为它会同步 GPU。"
        ),
        (
            "字符级小 Transformer：词表 128、4 层、\\(d = 128\\)、4 头、序列长 128，共 840,448 参数；第一步 loss 5.07 "
            "≈ \\(\\ln 128 = 4.85\\)；CPU 一分钟验证 loss 2.261、PPL 128 → 9.6；grad_norm 在 0.3 上下未触发裁剪；"
            "warmup 50 步到 \\(3 \\times 10^{-4}\\)、cosine 到 \\(3 \\times 10^{-5}\\)。"
        ),
        "CPU 上开 bf16 autocast 一步 1.4 s、关掉 0.05 s——慢 30 倍；混合精度的收益完全来自硬件。",
    ],
    4: [
        (
            "16 字节 / 可训练参数 = bf16 权重 2 + bf16 梯度 2 + fp32 主权重 4 + AdamW 两个矩 4 + 4；SGD 无矩是 8，"
            "8-bit 优化器约 10；梯度 + 状态那部分是 14 字节。"
        ),
        (
            "Llama-3-8B：全量 \\(8.03\\text{B} \\times 16 = 128.5\\) GB；LoRA \\(r = 16\\)：\\(8.03\\text{B} \\times 2 "
            "+ 41.9\\text{M} \\times 16 = 16.1 + 0.67 = 16.7\\) GB；QLoRA 4.4 + 0.67 ≈ 5.1 GB；推理只有一份 bf16 权重 "
            "16 GB，训练是推理的 8 倍。"
        ),
        (
            "激活：残差流一份 \\(4096 \\times 4096 \\times 2 = 32\\) MiB/层、32 层 1.0 GiB；反向要保存的中间量约 528 "
            "MiB/层、32 层 16.5 GiB；\\(B = 8\\) 时 132 GiB；checkpointing 换成 1 GiB，多约 30% 计算（前向 1 + 反向 2 "
            "+ 重算 1，\\(4/3\\)）。"
        ),
        (
            "OOM 按爆的时机归因：加载就爆是权重；第一步 backward 爆是梯度与状态；序列变长爆是激活；加了 LoRA "
            "还爆看激活；生成时爆是忘了 no_grad 或 KV cache；reserved 远大于 allocated 是碎片。"
        ),
        (
            "FSDP 8 卡上 128.5 GB → 每卡 16 GB；numel() × element_size() 是任何张量的字节数；跑前算、跑后 "
            "max_memory_allocated()，误差 30% 内算会算。"
        ),
    ],
    5: [
        (
            "Qwen2.5-0.5B 的 config.json：hidden 896、24 层、14 / 2 个头、intermediate 4864、vocab 151936、"
            "tie_word_embeddings true（省 \\(V \\times d = 136\\)M）；494M 参数。"
        ),
        (
            "LoRA \\(r = 16\\)、\\(\\alpha = 32\\)：输出加 \\(\\frac{\\alpha}{r} BAx\\)，常取 \\(\\alpha = 2r\\)；"
            'target_modules="all-linear" 挂七个线性层；合并 \\(W\' = W + \\frac{\\alpha}{r} BA\\)，推理零开销。'
        ),
        (
            "0.5B 可训练 8.80M / 494M = 1.78%（8B 是 0.52%，小模型 \\(d\\) 小占比更高）、训练状态 ≈ 8.80M × 16 = 141 "
            "MB、fp32 冻结权重 1.98 GB。"
        ),
        (
            "loss mask：batch (4, 36) 里 122 / 144 = 85% 是 −100；真实 SFT 数据回复长，比例反过来。"
            "推理必须用与训练相同的 chat template。"
        ),
        (
            "源码入口：modeling_llama.py、dpo_trainer.py 的 dpo_loss、grpo_trainer.py、peft/tuners/lora/layer.py 的 "
            "result += lora_B(lora_A(dropout(x))) * scaling、sft_trainer.py 与 collator、logits_process.py。"
        ),
    ],
    6: [
        (
            "ridge \\(= 989 \\times 10^{12} / 3.35 \\times 10^{12} \\approx 295\\) FLOP/字节；decode 强度 \\(2N / 2N = "
            "1\\)，batch \\(B\\) 时强度 \\(B\\)。"
        ),
        (
            "decode 下限 \\(16.06\\ \\text{GB} / 3.35\\ \\text{TB/s} \\approx 4.8\\) ms → 209 token/s；batch 128 仍 "
            "4.8 ms、26700 token/s；batch 512 算力时间 8.3 ms 超过带宽时间，compute-bound。"
        ),
        (
            "prefill 4096 token：\\(2 \\times 8.03 \\times 10^9 \\times 4096 \\approx 66\\) TFLOP，\\(66 / 989 "
            "\\approx 67\\) ms；MFU 40–50% 算好。"
        ),
        (
            "KV cache 每 token 每层 \\(2 \\times n_{kv} \\times d_{head}\\) 个数：Llama-3-8B \\(2 \\times 8 \\times "
            "128 \\times 32 \\times 2 = 131\\) KB/token，8K 上下文 1 GB，64 并发 64 GB；GQA 8 个 kv 头把它缩到 1/4。"
        ),
        (
            "profiler：mm 25% + addmm 10% + attention 前后向 26% ≈ 60% 正常；attention 反向 8.4 ms vs 前向 5.2 "
            "ms——反向 ≈ 2 × 前向。"
        ),
        (
            "七项记录：run id · commit · 配置文件 · 数据版本 · seed · 环境 · 指标；同 seed 两次 3.237898 一致，seed 1 "
            "差 0.1404。"
        ),
    ],
}
