<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name></name>
    <message>
        <source>not valid JSON: {exc}</source>
        <translation>不是有效的 JSON：{exc}</translation>
    </message>
    <message>
        <source>a number is too long: {exc}</source>
        <translation>数字过长：{exc}</translation>
    </message>
    <message>
        <source>nested too deeply to be a run config (a run config is 3 levels deep)</source>
        <translation>嵌套过深，不可能是运行配置（运行配置只有 3 层）</translation>
    </message>
    <message>
        <source>no such config file</source>
        <translation>配置文件不存在</translation>
    </message>
    <message>
        <source>not a regular file; a run config is a JSON text file</source>
        <translation>不是普通文件；运行配置是 JSON 文本文件</translation>
    </message>
    <message>
        <source>is {size:,.0f} MB; a run config is a few KB: is this the right file?</source>
        <translation>大小为 {size:,.0f} MB；运行配置只有几 KB：是不是选错了文件？</translation>
    </message>
    <message>
        <source>cannot be read: {value}</source>
        <translation>无法读取：{value}</translation>
    </message>
    <message>
        <source>not UTF-8 text (byte 0x{byte:02x} at position {start}): a run config is a JSON text file; is this the right file?</source>
        <translation>不是 UTF-8 文本（位置 {start} 处的字节 0x{byte:02x}）：运行配置是 JSON 文本文件；是不是选错了文件？</translation>
    </message>
    <message>
        <source>a whole number</source>
        <translation>整数</translation>
    </message>
    <message>
        <source>a number</source>
        <translation>数字</translation>
    </message>
    <message>
        <source>text in quotes</source>
        <translation>带引号的文本</translation>
    </message>
    <message>
        <source>true or false</source>
        <translation>true 或 false</translation>
    </message>
    <message>
        <source>a JSON object</source>
        <translation>JSON 对象</translation>
    </message>
    <message>
        <source>a list of whole numbers</source>
        <translation>整数列表</translation>
    </message>
    <message>
        <source>a list of numbers</source>
        <translation>数字列表</translation>
    </message>
    <message>
        <source>a list of texts</source>
        <translation>文本列表</translation>
    </message>
    <message>
        <source>{first} or {second}</source>
        <translation>{first} 或 {second}</translation>
    </message>
    <message>
        <source>{kind} or null</source>
        <translation>{kind} 或 null</translation>
    </message>
    <message>
        <source>must be a JSON object</source>
        <translation>必须是 JSON 对象</translation>
    </message>
    <message>
        <source>unknown key; known keys: {fields}</source>
        <translation>未知的键；已知的键：{fields}</translation>
    </message>
    <message>
        <source>wrong type; expected {annotation}</source>
        <translation>类型错误；应为 {annotation}</translation>
    </message>
    <message>
        <source>must be one of: {allowed}</source>
        <translation>必须是以下之一：{allowed}</translation>
    </message>
    <message>
        <source>{a} or {b}</source>
        <translation>{a} 或 {b}</translation>
    </message>
    <message>
        <source>must be divisible by the {replicas} replicas (each replica gets global / replicas examples); the nearest valid sizes are {sizes}</source>
        <translation>必须能被 {replicas} 个副本整除（每个副本分到 全局批处理大小 / 副本数 个样本）；最接近的有效值为 {sizes}</translation>
    </message>
    <message>
        <source>must be a number in (0, 10]</source>
        <translation>必须是 (0, 10] 之间的数</translation>
    </message>
    <message>
        <source>must be in [0, 1), e.g. 0.2 keeps 20% for validation</source>
        <translation>必须在 [0, 1) 之间，例如 0.2 表示留出 20% 用于验证</translation>
    </message>
    <message>
        <source>must be null (wait for peers as long as it takes) or seconds &gt; 0, e.g. 600</source>
        <translation>必须为 null（一直等待其他工作器）或大于 0 的秒数，例如 600</translation>
    </message>
    <message>
        <source>must be an integer &gt;= 1 or &quot;auto&quot;</source>
        <translation>必须是 &gt;= 1 的整数或 &quot;auto&quot;</translation>
    </message>
    <message>
        <source>caches the examples of a run of one process; {strategy} runs several: set it to false</source>
        <translation>只能缓存单进程运行的样本；{strategy} 会运行多个进程：请设为 false</translation>
    </message>
    <message>
        <source>{why}; the name becomes part of the run folder&apos;s name: use up to {name_max_chars} characters without {name_forbidden} or control characters</source>
        <translation>{why}；名称会成为运行文件夹名的一部分：最多 {name_max_chars} 个字符，不能含 {name_forbidden} 或控制字符</translation>
    </message>
    <message>
        <source>must be a number &gt;= {low:g}</source>
        <translation>必须是 &gt;= {low:g} 的数</translation>
    </message>
    <message>
        <source>must be at most {high:,}</source>
        <translation>最多为 {high:,}</translation>
    </message>
    <message>
        <source>must be null (all GPUs, else the CPU) or a list like [&quot;GPU:0&quot;, &quot;GPU:1&quot;]</source>
        <translation>必须为 null（使用所有 GPU，没有则用 CPU）或形如 [&quot;GPU:0&quot;, &quot;GPU:1&quot;] 的列表</translation>
    </message>
    <message>
        <source>each device must look like &quot;GPU:0&quot; or &quot;CPU:0&quot;</source>
        <translation>每个设备都必须形如 &quot;GPU:0&quot; 或 &quot;CPU:0&quot;</translation>
    </message>
    <message>
        <source>a device is listed twice</source>
        <translation>有设备被列出了两次</translation>
    </message>
    <message>
        <source>strategy {strategy} uses one device; pick one or use mirrored</source>
        <translation>策略 {strategy} 只使用一个设备；请只选一个，或改用 mirrored</translation>
    </message>
    <message>
        <source>file when the source is several files and each worker can have one, else data</source>
        <translation>数据源由多个文件组成且每个工作器都能分到一个时用 file，否则用 data</translation>
    </message>
    <message>
        <source>each worker reads its own files (CSV or TFRecord shards); needs at least one file per worker</source>
        <translation>每个工作器读取自己的文件（CSV 或 TFRecord 分片）；每个工作器至少需要一个文件</translation>
    </message>
    <message>
        <source>every worker reads everything and keeps every N-th example: works for any source</source>
        <translation>每个工作器读取全部数据，只保留每第 N 个样本：适用于任何数据源</translation>
    </message>
    <message>
        <source>no sharding: every worker trains on every example (for sources that shard themselves)</source>
        <translation>不分片：每个工作器都用全部样本训练（用于自行分片的数据源）</translation>
    </message>
    <message>
        <source>give the path of {what}</source>
        <translation>请给出{what}的路径</translation>
    </message>
    <message>
        <source>is a folder, not a file ({what})</source>
        <translation>是文件夹，不是文件（{what}）</translation>
    </message>
    <message>
        <source>no such file ({what})</source>
        <translation>文件不存在（{what}）</translation>
    </message>
    <message>
        <source>must be one of: {model_kinds}</source>
        <translation>必须是以下之一：{model_kinds}</translation>
    </message>
    <message>
        <source>must be a non-empty list of positive layer sizes, e.g. [16, 8]</source>
        <translation>必须是由正整数层大小组成的非空列表，例如 [16, 8]</translation>
    </message>
    <message>
        <source>filters per conv block, e.g. [32, 64]</source>
        <translation>每个卷积块的滤波器数，例如 [32, 64]</translation>
    </message>
    <message>
        <source>must be a positive whole number, e.g. 3</source>
        <translation>必须是正整数，例如 3</translation>
    </message>
    <message>
        <source>conv blocks with synchronized batch norm, pooling and a Dense head; for images</source>
        <translation>带同步批归一化和池化的卷积块，加一个 Dense 输出头；用于图像</translation>
    </message>
    <message>
        <source>not an architecture of tf_keras.applications{hint}</source>
        <translation>不是 tf_keras.applications 中的架构{hint}</translation>
    </message>
    <message>
        <source>a weights file (.h5) saved on this machine</source>
        <translation>本机上保存的权重文件（.h5）</translation>
    </message>
    <message>
        <source>an architecture of tf_keras.applications, random or local weights (never downloaded)</source>
        <translation>tf_keras.applications 中的架构，随机或本地权重（从不下载）</translation>
    </message>
    <message>
        <source>a keyword argument&apos;s name must be a Python identifier</source>
        <translation>关键字参数的名称必须是 Python 标识符</translation>
    </message>
    <message>
        <source>the engine passes it: use another name</source>
        <translation>该参数由引擎传入：请换一个名称</translation>
    </message>
    <message>
        <source>a keyword argument must be a number, text, true/false or a list of those</source>
        <translation>关键字参数必须是数字、文本、true/false 或由它们组成的列表</translation>
    </message>
    <message>
        <source>a Python file defining the model</source>
        <translation>定义模型的 Python 文件</translation>
    </message>
    <message>
        <source>build_model(input_shape, num_classes) in your file returns an uncompiled tf_keras model</source>
        <translation>你的文件中的 build_model(input_shape, num_classes) 返回一个未编译的 tf_keras 模型</translation>
    </message>
    <message>
        <source>a .keras model file, e.g. an earlier run&apos;s model.keras</source>
        <translation>.keras 模型文件，例如之前某次运行的 model.keras</translation>
    </message>
    <message>
        <source>must be a .keras file (tf-keras&apos;s model.save format)</source>
        <translation>必须是 .keras 文件（tf-keras 的 model.save 格式）</translation>
    </message>
    <message>
        <source>a .keras model (e.g. an earlier run&apos;s model.keras), trained further</source>
        <translation>一个 .keras 模型（例如之前某次运行的 model.keras），在其基础上继续训练</translation>
    </message>
    <message>
        <source>Keras models (*.keras)</source>
        <translation>Keras 模型 (*.keras)</translation>
    </message>
    <message>
        <source>must be one of: {data_kinds}</source>
        <translation>必须是以下之一：{data_kinds}</translation>
    </message>
    <message>
        <source>must be one of: {shard_policies}</source>
        <translation>必须是以下之一：{shard_policies}</translation>
    </message>
    <message>
        <source>a {kind} source is not read by TensorFlow&apos;s file readers, so it cannot be split by file; use data or auto (file works for csv and tfrecord)</source>
        <translation>{kind} 数据源不经 TensorFlow 的文件读取器读取，无法按文件分片；请使用 data 或 auto（file 适用于 csv 和 tfrecord）</translation>
    </message>
    <message>
        <source>with file sharding each worker reads different files, so a validation split cannot be cut the same on every worker; use data, or validation_split 0</source>
        <translation>按文件分片时每个工作器读取不同的文件，无法在每个工作器上切出相同的验证集；请使用 data，或把 validation_split 设为 0</translation>
    </message>
    <message>
        <source>must be a number &gt;= 2 (labels are 0 .. classes-1)</source>
        <translation>必须是 &gt;= 2 的数（标签为 0 .. 类别数-1）</translation>
    </message>
    <message>
        <source>examples</source>
        <translation>样本数</translation>
    </message>
    <message>
        <source>the tutorial&apos;s random data</source>
        <translation>教程中的随机数据</translation>
    </message>
    <message>
        <source>examples per epoch (the run&apos;s steps are this / batch)</source>
        <translation>每轮次的样本数（运行的步数为 此数 / 批大小）</translation>
    </message>
    <message>
        <source>must be a number &gt;= 2: {what}</source>
        <translation>必须是 &gt;= 2 的数：{what}</translation>
    </message>
    <message>
        <source>must be a number &gt;= 1</source>
        <translation>必须是 &gt;= 1 的数</translation>
    </message>
    <message>
        <source>an .npz file</source>
        <translation>.npz 文件</translation>
    </message>
    <message>
        <source>a CSV file (or a glob of several, e.g. data/part-*.csv)</source>
        <translation>CSV 文件（或匹配多个文件的通配符，例如 data/part-*.csv）</translation>
    </message>
    <message>
        <source>TFRecord files</source>
        <translation>TFRecord 文件</translation>
    </message>
    <message>
        <source>no file matches ({what})</source>
        <translation>没有匹配的文件（{what}）</translation>
    </message>
    <message>
        <source>name the CSV column that holds the labels</source>
        <translation>请指定存放标签的 CSV 列</translation>
    </message>
    <message>
        <source>must be float (a list of numbers) or image</source>
        <translation>必须是 float（数值列表）或 image</translation>
    </message>
    <message>
        <source>the shape of one example&apos;s features, e.g. [10] or [32, 32, 3] for an image</source>
        <translation>单个样本特征的形状，例如 [10]，图像则如 [32, 32, 3]</translation>
    </message>
    <message>
        <source>give a folder with one subfolder of images per class</source>
        <translation>请给出一个文件夹，每个类别的图像放在一个子文件夹中</translation>
    </message>
    <message>
        <source>no such folder</source>
        <translation>文件夹不存在</translation>
    </message>
    <message>
        <source>a Python file defining the dataset</source>
        <translation>定义数据集的 Python 文件</translation>
    </message>
    <message>
        <source>a python dataset brings its own validation examples through data.validation_function; set validation_split to 0</source>
        <translation>python 数据集通过 data.validation_function 自带验证样本；请把 validation_split 设为 0</translation>
    </message>
    <message>
        <source>a python dataset shards itself with input_context (input_pipeline_id, num_input_pipelines); leave auto</source>
        <translation>python 数据集通过 input_context（input_pipeline_id、num_input_pipelines）自行分片；请保持 auto</translation>
    </message>
    <message>
        <source>make_dataset(input_context) in your file returns (features, label) examples</source>
        <translation>你的文件中的 make_dataset(input_context) 返回 (特征, 标签) 样本</translation>
    </message>
    <message>
        <source>Examples per epoch</source>
        <translation>每轮次样本数</translation>
    </message>
    <message>
        <source>Python files (*.py)</source>
        <translation>Python 文件 (*.py)</translation>
    </message>
    <message>
        <source>[height, width] in pixels, or null for as stored</source>
        <translation>[高, 宽]（像素），或 null 表示保持原尺寸</translation>
    </message>
    <message>
        <source>must be one of: {color_modes}</source>
        <translation>必须是以下之一：{color_modes}</translation>
    </message>
    <message>
        <source>mix of CPU and GPU devices; choose either GPUs or the CPU</source>
        <translation>混用了 CPU 和 GPU 设备；请只选 GPU 或只选 CPU</translation>
    </message>
    <message>
        <source>not on this machine (found: {found}); leave devices empty to use what is there</source>
        <translation>本机上没有该设备（找到：{found}）；设备留空即使用本机已有的设备</translation>
    </message>
    <message>
        <source>the CPU is one device, &quot;CPU:0&quot;; split it with virtual_devices</source>
        <translation>CPU 只算一个设备 &quot;CPU:0&quot;；请用 virtual_devices 拆分它</translation>
    </message>
    <message>
        <source>{reason}; {advice}</source>
        <translation>{reason}；{advice}</translation>
    </message>
    <message>
        <source>XLA compiles a step whose variables are on its own device; parameter_server keeps them on the ps tasks</source>
        <translation>XLA 只能编译变量与其在同一设备上的训练步；parameter_server 把变量放在 ps 任务上</translation>
    </message>
    <message>
        <source>turn jit_compile off</source>
        <translation>请关闭 jit_compile</translation>
    </message>
    <message>
        <source>{strategy} compiles its step with XLA only on GPUs (on CPU replicas TensorFlow cannot all-reduce inside XLA)</source>
        <translation>{strategy} 只在 GPU 上用 XLA 编译训练步（CPU 副本上 TensorFlow 无法在 XLA 内做 all-reduce）</translation>
    </message>
    <message>
        <source>on the CPU use one_device or default, or turn jit_compile off</source>
        <translation>在 CPU 上请用 one_device 或 default，或关闭 jit_compile</translation>
    </message>
    <message>
        <source>{strategy} all-reduces with {allowed} or auto; {choice} belongs to another strategy</source>
        <translation>{strategy} 的 all-reduce 可选 {allowed} 或 auto；{choice} 属于另一种策略</translation>
    </message>
    <message>
        <source>NCCL does not exist on {system} (TensorFlow has it on Linux only); choose auto</source>
        <translation>{system} 上没有 NCCL（TensorFlow 只在 Linux 上提供）；请选 auto</translation>
    </message>
    <message>
        <source>NCCL all-reduces between GPUs and this run is on the CPU; choose auto</source>
        <translation>NCCL 在 GPU 之间做 all-reduce，而本次运行在 CPU 上；请选 auto</translation>
    </message>
    <message>
        <source>{strategy} all-reduces no gradients, so this choice is not used</source>
        <translation>{strategy} 不对梯度做 all-reduce，此选项不会生效</translation>
    </message>
    <message>
        <source>only multi_worker_mirrored packs its gradients (CommunicationOptions); {strategy} does not use it</source>
        <translation>只有 multi_worker_mirrored 会把梯度分包（CommunicationOptions）；{strategy} 不使用它</translation>
    </message>
    <message>
        <source>one replica has nothing to all-reduce with; not used</source>
        <translation>只有一个副本，无需 all-reduce；此选项不会生效</translation>
    </message>
    <message>
        <source>under XLA (jit_compile) mirrored all-reduces with collectives; this choice is not used</source>
        <translation>在 XLA（jit_compile）下 mirrored 用集合通信做 all-reduce；此选项不会生效</translation>
    </message>
    <message>
        <source>this CPU lacks {features}: it converts {precision} to and from float32, so the run is no faster, usually slower; mixed precision pays on GPUs of compute capability {low}.{high} or more</source>
        <translation>此 CPU 没有 {features}：它要在 {precision} 与 float32 之间来回转换，运行不会更快，通常更慢；混合精度在计算能力 {low}.{high} 及以上的 GPU 上才有收益</translation>
    </message>
    <message>
        <source>{gpus}: {precision} runs fast from compute capability {low}.{high}; expect little or no gain</source>
        <translation>{gpus}：{precision} 从计算能力 {low}.{high} 起才快；预计收益很小或没有</translation>
    </message>
    <message>
        <source>unknown data.kind {kind!r}</source>
        <translation>未知的 data.kind {kind!r}</translation>
    </message>
    <message>
        <source>{info}: {n_train} training examples are fewer than one global batch of {global_batch}; use more data or a smaller global_batch_size</source>
        <translation>{info}：{n_train} 个训练样本少于一个全局批次（{global_batch}）；请使用更多数据或更小的全局批处理大小</translation>
    </message>
    <message>
        <source>{kind} data</source>
        <translation>{kind} 数据</translation>
    </message>
    <message>
        <source>{workers} workers need at least {workers} files to split by file, and data.path matches {n_files}; split the data into more files, or use data</source>
        <translation>{workers} 个工作器按文件分片至少需要 {workers} 个文件，而 data.path 只匹配到 {n_files} 个；请把数据拆成更多文件，或使用 data</translation>
    </message>
    <message>
        <source>examples come from {file}:{function}() when the run starts</source>
        <translation>样本在运行开始时由 {file}:{function}() 提供</translation>
    </message>
    <message>
        <source>{source}: only one class ({present}) in the labels; a classifier needs at least two</source>
        <translation>{source}：标签中只有一个类别（{present}）；分类器至少需要两个</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>{source}: the labels are {shown}, but classes are numbered 0, 1, 2 … with every number used; renumber them {wanted} (otherwise the model gets {present} outputs, {unused} of them for classes without an example)</source>
        <translation>{source}：标签为 {shown}，但类别应从 0, 1, 2 … 连续编号；请重新编号为 {wanted}（否则模型会有 {present} 个输出，其中 {unused} 个对应没有样本的类别）</translation>
    </message>
    <message>
        <source>{source} has no examples</source>
        <translation>{source} 没有样本</translation>
    </message>
    <message>
        <source>{source}: labels are {dtype}, not class numbers 0, 1, 2, ...</source>
        <translation>{source}：标签类型为 {dtype}，不是类别编号 0, 1, 2, ...</translation>
    </message>
    <message>
        <source>{source}: example {i} has label {y!r}; labels must be class numbers 0, 1, 2, ... (0/1 for binary)</source>
        <translation>{source}：样本 {i} 的标签为 {y!r}；标签必须是类别编号 0, 1, 2, ...（二分类为 0/1）</translation>
    </message>
    <message>
        <source>NPZ file {path}</source>
        <translation>NPZ 文件 {path}</translation>
    </message>
    <message>
        <source>{source} cannot be read ({value}); check data.path</source>
        <translation>无法读取 {source}（{value}）；请检查 data.path</translation>
    </message>
    <message>
        <source>{source} holds a single array (.npy), not named arrays of features and labels; save them with numpy.savez(path, x=features, y=labels)</source>
        <translation>{source} 只有一个数组（.npy），而不是具名的特征和标签数组；请用 numpy.savez(path, x=features, y=labels) 保存</translation>
    </message>
    <message>
        <source>{source} has no array {missing!r}; its arrays are: {value} (set data.features_key and data.labels_key)</source>
        <translation>{source} 中没有数组 {missing!r}；其中的数组为：{value}（请设置 data.features_key 和 data.labels_key）</translation>
    </message>
    <message>
        <source>{source} cannot be read ({exc}); save it with numpy.savez</source>
        <translation>无法读取 {source}（{exc}）；请用 numpy.savez 保存</translation>
    </message>
    <message>
        <source>NumPy arrays of features and labels, read into memory</source>
        <translation>特征和标签的 NumPy 数组，读入内存</translation>
    </message>
    <message>
        <source>NumPy archives (*.npz);;All files (*)</source>
        <translation>NumPy 归档 (*.npz);;所有文件 (*)</translation>
    </message>
    <message>
        <source>{source}: features are {dtype}, not numbers</source>
        <translation>{source}：特征类型为 {dtype}，不是数值</translation>
    </message>
    <message>
        <source>{source}: features must be (samples, features) and labels (samples,); got {shape} and {shape2}</source>
        <translation>{source}：特征形状必须为 (样本数, 特征数)，标签为 (样本数,)；实际为 {shape} 和 {shape2}</translation>
    </message>
    <message>
        <source>no CSV file matches {path}; check data.path</source>
        <translation>没有与 {path} 匹配的 CSV 文件；请检查 data.path</translation>
    </message>
    <message>
        <source>CSV file {path} has columns {file_header}, unlike {files}</source>
        <translation>CSV 文件 {path} 的列为 {file_header}，与 {files} 不同</translation>
    </message>
    <message>
        <source>CSV file {path}</source>
        <translation>CSV 文件 {path}</translation>
    </message>
    <message>
        <source>classes from the first {rows:,} rows; rows estimated from the file size</source>
        <translation>类别来自前 {rows:,} 行；行数按文件大小估算</translation>
    </message>
    <message>
        <source>numeric columns and a label column; streamed, so it may be larger than memory</source>
        <translation>数值列加一个标签列；流式读取，可以大于内存</translation>
    </message>
    <message>
        <source>CSV files (*.csv);;All files (*)</source>
        <translation>CSV 文件 (*.csv);;所有文件 (*)</translation>
    </message>
    <message>
        <source>CSV file {path} is empty; it needs a header row and at least one data row</source>
        <translation>CSV 文件 {path} 为空；需要一个表头行和至少一行数据</translation>
    </message>
    <message>
        <source>CSV file {path}, line 1: blank; the header must be the first line: delete the blank lines above it</source>
        <translation>CSV 文件 {path} 第 1 行：空行；表头必须在第一行：请删除其上方的空行</translation>
    </message>
    <message>
        <source>CSV file {path} has no column {label!r} for the labels; its columns are: {header}</source>
        <translation>CSV 文件 {path} 中没有标签列 {label!r}；其列为：{header}</translation>
    </message>
    <message>
        <source>CSV file {path} has only the label column; it needs feature columns too</source>
        <translation>CSV 文件 {path} 只有标签列；还需要特征列</translation>
    </message>
    <message>
        <source>CSV file {path}, line {line}: a quoted value runs over a line break; each example must be on one line: remove the line break</source>
        <translation>CSV 文件 {path} 第 {line} 行：带引号的值跨越了换行；每个样本必须在一行内：请删除该换行</translation>
    </message>
    <message>
        <source>CSV file {path}, line {line}: {n_row} values for {width} columns</source>
        <translation>CSV 文件 {path} 第 {line} 行：{width} 列却有 {n_row} 个值</translation>
    </message>
    <message>
        <source>CSV file {path}, line {line}: column {header!r} holds text {row!r}; only numbers can train a model: encode that column as numbers or remove it</source>
        <translation>CSV 文件 {path} 第 {line} 行：列 {header!r} 含文本 {row!r}；只有数值能训练模型：请把该列编码为数值或删除它</translation>
    </message>
    <message>
        <source>CSV file {path}, line {line}: column {header!r} holds {row!r}, a number TensorFlow cannot read; write it with the digits 0-9 only, e.g. 1000, -2.5 or 1e-3</source>
        <translation>CSV 文件 {path} 第 {line} 行：列 {header!r} 含 {row!r}，TensorFlow 无法读取该数字；请只用数字 0-9 书写，例如 1000、-2.5 或 1e-3</translation>
    </message>
    <message>
        <source>CSV file {path}, line {line} (example {rows}): column {header!r} has a missing or infinite value; fill or drop that row</source>
        <translation>CSV 文件 {path} 第 {line} 行（样本 {rows}）：列 {header!r} 有缺失值或无穷值；请补全或删除该行</translation>
    </message>
    <message>
        <source>CSV file {path} is not UTF-8 text (byte {byte} at offset {offset:,}); save it as UTF-8</source>
        <translation>CSV 文件 {path} 不是 UTF-8 文本（偏移 {offset:,} 处的字节 {byte}）；请另存为 UTF-8</translation>
    </message>
    <message>
        <source>CSV file {path}, line {line} cannot be read ({exc}); fix or remove that line</source>
        <translation>CSV 文件 {path} 第 {line} 行无法读取（{exc}）；请修正或删除该行</translation>
    </message>
    <message>
        <source>CSV file {path}, line {line}: label column {label!r} holds {row!r}; labels must be class numbers 0, 1, 2, ... (0/1 for binary): map the classes to numbers</source>
        <translation>CSV 文件 {path} 第 {line} 行：标签列 {label!r} 的值为 {row!r}；标签必须是类别编号 0, 1, 2, ...（二分类为 0/1）：请把类别映射为数字</translation>
    </message>
    <message>
        <source>CSV file {path} has a header but no data rows</source>
        <translation>CSV 文件 {path} 只有表头，没有数据行</translation>
    </message>
    <message>
        <source>image folder {path} does not exist; check data.path</source>
        <translation>图像文件夹 {path} 不存在；请检查 data.path</translation>
    </message>
    <message>
        <source> (images such as {image} lie in the folder itself)</source>
        <translation>（{image} 等图像直接放在了文件夹本身中）</translation>
    </message>
    <message>
        <source>image folder {path} has no images in subfolders{hint}; put each class&apos;s images ({image_extensions}) in a subfolder named after the class</source>
        <translation>图像文件夹 {path} 的子文件夹中没有图像{hint}；请把每个类别的图像（{image_extensions}）放进以类别命名的子文件夹</translation>
    </message>
    <message>
        <source>image folder {path} has one class ({classes}); a classifier needs at least two subfolders of images, one per class</source>
        <translation>图像文件夹 {path} 只有一个类别（{classes}）；分类器至少需要两个图像子文件夹，每个类别一个</translation>
    </message>
    <message>
        <source>image {path} cannot be read ({exc}); replace or delete it</source>
        <translation>无法读取图像 {path}（{exc}）；请替换或删除它</translation>
    </message>
    <message>
        <source>image folder {path} has images of mixed sizes ({a}x{a2} in {fa}, {b}x{b2} in {fb}); set data.image_size, e.g. [64, 64], to resize them all</source>
        <translation>图像文件夹 {path} 中的图像尺寸不一（{fa} 为 {a}x{a2}，{fb} 为 {b}x{b2}）；请设置 data.image_size（例如 [64, 64]）统一缩放</translation>
    </message>
    <message>
        <source>image folder {path} mixes images with {a} channel(s) ({fa}) and {b} ({fb}); set data.color_mode to &quot;rgb&quot; or &quot;grayscale&quot; to convert them all</source>
        <translation>图像文件夹 {path} 混有 {a} 通道（{fa}）和 {b} 通道（{fb}）的图像；请把 data.color_mode 设为 &quot;rgb&quot; 或 &quot;grayscale&quot; 统一转换</translation>
    </message>
    <message>
        <source>one subfolder of images per class (PNG, JPEG, BMP, GIF)</source>
        <translation>每个类别一个图像子文件夹（PNG、JPEG、BMP、GIF）</translation>
    </message>
    <message>
        <source>headers of {checked:,} of {files:,} images checked</source>
        <translation>已检查 {files:,} 张图像中 {checked:,} 张的文件头</translation>
    </message>
    <message>
        <source>no TFRecord file matches {path}; check data.path</source>
        <translation>没有与 {path} 匹配的 TFRecord 文件；请检查 data.path</translation>
    </message>
    <message>
        <source>TFRecord file {path}: {exc}</source>
        <translation>TFRecord 文件 {path}：{exc}</translation>
    </message>
    <message>
        <source>TFRecord files {path} hold no records</source>
        <translation>TFRecord 文件 {path} 中没有记录</translation>
    </message>
    <message>
        <source>TFRecord file {path}, record {n}</source>
        <translation>TFRecord 文件 {path} 第 {n} 条记录</translation>
    </message>
    <message>
        <source>classes counted in the first {records:,} records</source>
        <translation>类别按前 {records:,} 条记录统计</translation>
    </message>
    <message>
        <source>{where} has no feature {key!r}; its features are: {names}</source>
        <translation>{where} 中没有特征 {key!r}；其特征为：{names}</translation>
    </message>
    <message>
        <source>{where}: label {labels_key!r} holds {n_values} {kind} value(s); it must be one int64 class id</source>
        <translation>{where}：标签 {labels_key!r} 含 {n_values} 个 {kind} 值；必须是一个 int64 类别编号</translation>
    </message>
    <message>
        <source>{where}: label {y} is not a class id below data.num_classes = {num_classes}; raise num_classes or fix the labels</source>
        <translation>{where}：标签 {y} 不是小于 data.num_classes = {num_classes} 的类别编号；请增大 num_classes 或修正标签</translation>
    </message>
    <message>
        <source>{where}: feature {features_key!r} holds {kind} values, the description says float (set data.feature_type to image for encoded images)</source>
        <translation>{where}：特征 {features_key!r} 含 {kind} 值，而描述为 float（编码图像请把 data.feature_type 设为 image）</translation>
    </message>
    <message>
        <source>{where}: feature {features_key!r} has {n_values} values; feature_shape {shape} needs {math}</source>
        <translation>{where}：特征 {features_key!r} 有 {n_values} 个值；feature_shape {shape} 需要 {math} 个</translation>
    </message>
    <message>
        <source>{where}: feature {features_key!r} holds {kind} values, not one encoded image (set data.feature_type to float for a list of numbers)</source>
        <translation>{where}：特征 {features_key!r} 含 {kind} 值，而不是一张编码图像（数值列表请把 data.feature_type 设为 float）</translation>
    </message>
    <message>
        <source>{where}: an image feature needs feature_shape [height, width, channels], not {shape}</source>
        <translation>{where}：图像特征的 feature_shape 应为 [高, 宽, 通道数]，而不是 {shape}</translation>
    </message>
    <message>
        <source>{where}: feature {key!r} is not an encoded image ({exc})</source>
        <translation>{where}：特征 {key!r} 不是编码图像（{exc}）</translation>
    </message>
    <message>
        <source>{where}: image mode {mode} cannot become {shape} channels</source>
        <translation>{where}：图像模式 {mode} 无法转换为 {shape} 个通道</translation>
    </message>
    <message>
        <source>tf.train.Example records: features and an int64 label</source>
        <translation>tf.train.Example 记录：特征和一个 int64 标签</translation>
    </message>
    <message>
        <source>TFRecord files (*.tfrecord *.tfrecords *.tfr);;All files (*)</source>
        <translation>TFRecord 文件 (*.tfrecord *.tfrecords *.tfr);;所有文件 (*)</translation>
    </message>
    <message>
        <source>{file}: {function}() takes no keyword argument {name!r}; it takes {accepted} (or add **kwargs to it)</source>
        <translation>{file}：{function}() 不接受关键字参数 {name!r}；它接受 {accepted}（或给它加上 **kwargs）</translation>
    </message>
    <message>
        <source>a function name, e.g. {example}</source>
        <translation>函数名，例如 {example}</translation>
    </message>
    <message>
        <source>no such file</source>
        <translation>文件不存在</translation>
    </message>
    <message>
        <source>{name} {error}</source>
        <translation>{name} {error}</translation>
    </message>
    <message>
        <source>{name} defines no function {function!r} at top level (it defines: {defined}); expected {contracts}</source>
        <translation>{name} 的顶层没有定义函数 {function!r}（已定义：{defined}）；应为 {contracts}</translation>
    </message>
    <message>
        <source>write whole numbers, e.g. {example}</source>
        <translation>请填写整数，例如 {example}</translation>
    </message>
    <message>
        <source>cannot read the file: {error}</source>
        <translation>无法读取文件：{error}</translation>
    </message>
    <message>
        <source>write sizes as whole numbers, e.g. {example}</source>
        <translation>请用整数填写大小，例如 {example}</translation>
    </message>
    <message>
        <source>give at least one size, e.g. {example}</source>
        <translation>请至少填写一个大小，例如 {example}</translation>
    </message>
    <message>
        <source>write a JSON object, e.g. {{&quot;width&quot;: 64}}</source>
        <translation>请写成 JSON 对象，例如 {{&quot;width&quot;: 64}}</translation>
    </message>
    <message>
        <source>the config holds {value}, which this field cannot show (it takes {low} to {high}); kept as it is until you change the field</source>
        <translation>配置中的值为 {value}，此字段无法显示（取值范围 {low} 到 {high}）；在你修改此字段前保持原样</translation>
    </message>
    <message>
        <source>evaluator: validates each checkpoint</source>
        <translation>评估器：验证每个检查点</translation>
    </message>
    <message>
        <source>coordinator: runs the training program</source>
        <translation>协调器：运行训练程序</translation>
    </message>
    <message>
        <source>worker: runs the coordinator&apos;s steps</source>
        <translation>工作器：执行协调器分派的步骤</translation>
    </message>
    <message>
        <source>parameter server: holds variables</source>
        <translation>参数服务器：保存变量</translation>
    </message>
    <message>
        <source>chief: trains and writes the results</source>
        <translation>主工作器：训练并写出结果</translation>
    </message>
    <message>
        <source>worker: trains in sync</source>
        <translation>工作器：同步训练</translation>
    </message>
    <message>
        <source>the cluster has no chief or worker task</source>
        <translation>集群中没有 chief 或 worker 任务</translation>
    </message>
    <message>
        <source>write an IPv6 address as &quot;[::1]:2222&quot;</source>
        <translation>IPv6 地址请写成 &quot;[::1]:2222&quot;</translation>
    </message>
    <message>
        <source>needs a port, e.g. &quot;127.0.0.1:2222&quot;</source>
        <translation>需要端口，例如 &quot;127.0.0.1:2222&quot;</translation>
    </message>
    <message>
        <source>put an IPv6 address in brackets, e.g. &quot;[::1]:2222&quot;</source>
        <translation>IPv6 地址请放在方括号中，例如 &quot;[::1]:2222&quot;</translation>
    </message>
    <message>
        <source>port {port!r} is not a number; use 1-65535</source>
        <translation>端口 {port!r} 不是数字；请使用 1-65535</translation>
    </message>
    <message>
        <source>the host is empty; use a machine name or an IP address</source>
        <translation>主机为空；请使用机器名或 IP 地址</translation>
    </message>
    <message>
        <source>the host contains {characters}, which is not allowed in a host name and unsafe in a start script; use a machine name or an IP address</source>
        <translation>主机中含有 {characters}，主机名中不允许出现，且在启动脚本中不安全；请使用机器名或 IP 地址</translation>
    </message>
    <message>
        <source>not a valid IPv6 address</source>
        <translation>不是有效的 IPv6 地址</translation>
    </message>
    <message>
        <source>not a valid IPv4 address (four numbers 0-255, e.g. 10.0.0.5)</source>
        <translation>不是有效的 IPv4 地址（四个 0-255 的数字，例如 10.0.0.5）</translation>
    </message>
    <message>
        <source>not a valid host name: letters, digits and &apos;-&apos; in dot-separated parts of at most 63 characters, not starting or ending with &apos;-&apos;</source>
        <translation>不是有效的主机名：由点分隔的各部分只能含字母、数字和 &apos;-&apos;，每部分最多 63 个字符，且不能以 &apos;-&apos; 开头或结尾</translation>
    </message>
    <message>
        <source>not JSON: {exc}</source>
        <translation>不是 JSON：{exc}</translation>
    </message>
    <message>
        <source>must be a JSON object {&quot;cluster&quot;: ..., &quot;task&quot;: ...}</source>
        <translation>必须是 JSON 对象 {&quot;cluster&quot;: ..., &quot;task&quot;: ...}</translation>
    </message>
    <message>
        <source>not a TF_CONFIG: it has neither &quot;cluster&quot; nor &quot;task&quot; (is it a run config?)</source>
        <translation>不是 TF_CONFIG：既没有 &quot;cluster&quot; 也没有 &quot;task&quot;（是不是运行配置？）</translation>
    </message>
    <message>
        <source>unknown key; a TF_CONFIG here has only &quot;cluster&quot; and &quot;task&quot;</source>
        <translation>未知的键；这里的 TF_CONFIG 只有 &quot;cluster&quot; 和 &quot;task&quot;</translation>
    </message>
    <message>
        <source>must be an object like {&quot;worker&quot;: [&quot;127.0.0.1:2222&quot;]}</source>
        <translation>必须是形如 {&quot;worker&quot;: [&quot;127.0.0.1:2222&quot;]} 的对象</translation>
    </message>
    <message>
        <source>must be a list of &quot;host:port&quot; strings</source>
        <translation>必须是 &quot;host:port&quot; 字符串的列表</translation>
    </message>
    <message>
        <source>must be an object like {&quot;type&quot;: &quot;worker&quot;, &quot;index&quot;: 0}</source>
        <translation>必须是形如 {&quot;type&quot;: &quot;worker&quot;, &quot;index&quot;: 0} 的对象</translation>
    </message>
    <message>
        <source>must be one of: {jobs}</source>
        <translation>必须是以下之一：{jobs}</translation>
    </message>
    <message>
        <source>must be an integer, counting from 0</source>
        <translation>必须是从 0 开始计数的整数</translation>
    </message>
    <message>
        <source>no cluster: TensorFlow would silently train this process alone; list the tasks, e.g. {&quot;worker&quot;: [&quot;127.0.0.1:20001&quot;, &quot;127.0.0.1:20002&quot;]}</source>
        <translation>没有集群：TensorFlow 会悄悄地只用本进程训练；请列出任务，例如 {&quot;worker&quot;: [&quot;127.0.0.1:20001&quot;, &quot;127.0.0.1:20002&quot;]}</translation>
    </message>
    <message>
        <source>unknown job; use one of: {jobs}</source>
        <translation>未知的作业；请使用以下之一：{jobs}</translation>
    </message>
    <message>
        <source>lists no address; add one or remove the job</source>
        <translation>没有列出地址；请添加一个或删除该作业</translation>
    </message>
    <message>
        <source>at most one {job}; make the others workers</source>
        <translation>{job} 最多只能有一个；请把其余的改为 worker</translation>
    </message>
    <message>
        <source>the port must be 1-65535</source>
        <translation>端口必须在 1-65535 之间</translation>
    </message>
    <message>
        <source>has no chief or worker task: nothing would train</source>
        <translation>没有 chief 或 worker 任务：没有任何进程会训练</translation>
    </message>
    <message>
        <source>same machine and port as {name}; give each task its own port</source>
        <translation>与 {name} 的机器和端口相同；请给每个任务分配自己的端口</translation>
    </message>
    <message>
        <source>not a loopback address: TensorFlow&apos;s gRPC server has no authentication or encryption and runs any graph it is sent; use it only on a trusted, firewalled network</source>
        <translation>不是回环地址：TensorFlow 的 gRPC 服务器没有身份验证和加密，会执行收到的任何计算图；只能在受信任且有防火墙保护的网络中使用</translation>
    </message>
    <message>
        <source>{host} means a different machine to each task, but other tasks run on {remote}; use this machine&apos;s network name or address</source>
        <translation>{host} 对每个任务指向不同的机器，而其他任务运行在 {remote} 上；请使用本机的网络名称或地址</translation>
    </message>
    <message>
        <source>missing; name the job of this process, e.g. &quot;worker&quot;</source>
        <translation>缺失；请指定本进程的作业，例如 &quot;worker&quot;</translation>
    </message>
    <message>
        <source>is not a job of the cluster (jobs: {jobs})</source>
        <translation>不是集群中的作业（作业：{jobs}）</translation>
    </message>
    <message>
        <source>must be 0-{n_addresses}: the {task_type} job has {n_addresses2} task(s)</source>
        <translation>必须在 0-{n_addresses} 之间：{task_type} 作业有 {n_addresses2} 个任务</translation>
    </message>
    <message>
        <source>strategy {strategy} ignores the cluster and every worker would train alone; use strategy multi_worker_mirrored or parameter_server</source>
        <translation>策略 {strategy} 会忽略集群，每个工作器都会单独训练；请使用策略 multi_worker_mirrored 或 parameter_server</translation>
    </message>
    <message>
        <source>strategy {strategy} uses no parameter servers; use parameter_server</source>
        <translation>策略 {strategy} 不使用参数服务器；请使用 parameter_server</translation>
    </message>
    <message>
        <source>strategy {strategy} cannot use an evaluator (it validates the checkpoints of a multi_worker_mirrored or parameter_server cluster); remove it or change the strategy</source>
        <translation>策略 {strategy} 不能使用评估器（评估器验证 multi_worker_mirrored 或 parameter_server 集群的检查点）；请删除它或更换策略</translation>
    </message>
    <message>
        <source>multi_worker_mirrored uses no parameter servers; remove the ps job</source>
        <translation>multi_worker_mirrored 不使用参数服务器；请删除 ps 作业</translation>
    </message>
    <message>
        <source>parameter_server needs at least one ps task to hold the variables; add one (cluster launch --ps 1)</source>
        <translation>parameter_server 至少需要一个 ps 任务来保存变量；请添加一个（cluster launch --ps 1）</translation>
    </message>
    <message>
        <source>parameter_server needs a chief task: the coordinator that runs the training program; add one</source>
        <translation>parameter_server 需要一个 chief 任务，即运行训练程序的协调器；请添加一个</translation>
    </message>
    <message>
        <source>parameter_server needs at least one worker task to run the steps; add one</source>
        <translation>parameter_server 至少需要一个 worker 任务来执行步骤；请添加一个</translation>
    </message>
    <message>
        <source>the evaluator validates on the run&apos;s validation data, and validation_split is 0; set it above 0 (e.g. 0.2) or remove the evaluator</source>
        <translation>评估器使用运行的验证数据进行验证，而 validation_split 为 0；请把它设为大于 0（例如 0.2）或删除评估器</translation>
    </message>
    <message>
        <source>{location}: {message}; check it with `tfdd cluster validate`</source>
        <translation>{location}：{message}；请用 `tfdd cluster validate` 检查</translation>
    </message>
    <message>
        <source>the cluster has no task {job} {index}</source>
        <translation>集群中没有任务 {job} {index}</translation>
    </message>
    <message>
        <source>a cluster needs at least one worker</source>
        <translation>集群至少需要一个工作器</translation>
    </message>
    <message>
        <source>{total} tasks need {total} ports, got {n_ports}</source>
        <translation>{total} 个任务需要 {total} 个端口，实际只有 {n_ports} 个</translation>
    </message>
    <message>
        <source>tick at least one device</source>
        <translation>请至少勾选一个设备</translation>
    </message>
    <message>
        <source>{field} = {value}: {message}</source>
        <translation>{field} = {value}：{message}</translation>
    </message>
    <message>
        <source>n/a</source>
        <translation>无</translation>
    </message>
    <message>
        <source>; resuming at epoch {epoch}, step {step}</source>
        <translation>；从轮次 {epoch}、步 {step} 继续</translation>
    </message>
    <message>
        <source>{strategy}: {replicas} replica(s) on {devices}; global batch {global_batch} = {per_replica} per replica; {loop} loop; {epochs} epoch(s) of {steps} steps{resumed}</source>
        <translation>{strategy}：{devices} 上 {replicas} 个副本；全局批次 {global_batch} = 每副本 {per_replica}；{loop} 循环；{epochs} 个轮次，每轮 {steps} 步{resumed}</translation>
    </message>
    <message>
        <source>, val loss {val_loss}, val accuracy {val_accuracy}</source>
        <translation>，验证损失 {val_loss}，验证准确率 {val_accuracy}</translation>
    </message>
    <message>
        <source>epoch {epoch}{of}: loss {loss}, accuracy {accuracy}{val}, {rate} examples/s, {seconds} s</source>
        <translation>轮次 {epoch}{of}：损失 {loss}，准确率 {accuracy}{val}，{rate} 样本/秒，{seconds} 秒</translation>
    </message>
    <message>
        <source>checkpoint saved at epoch {epoch}, step {step}: {path}</source>
        <translation>已在轮次 {epoch}、步 {step} 保存检查点：{path}</translation>
    </message>
    <message>
        <source>checkpoint saved after epoch {epoch}: {path}</source>
        <translation>已在轮次 {epoch} 结束后保存检查点：{path}</translation>
    </message>
    <message>
        <source>checkpoint saved before the first epoch: {path}</source>
        <translation>已在第一个轮次之前保存检查点：{path}</translation>
    </message>
    <message>
        <source>{checkpoint} (epoch {epoch}, step {step}): val loss {val_loss}, val accuracy {val_accuracy}</source>
        <translation>{checkpoint}（轮次 {epoch}，步 {step}）：验证损失 {val_loss}，验证准确率 {val_accuracy}</translation>
    </message>
    <message>
        <source>run failed after {epochs} epoch(s): {message}</source>
        <translation>运行在 {epochs} 个轮次后失败：{message}</translation>
    </message>
    <message>
        <source>run {status} after {epochs} epoch(s)</source>
        <translation>运行{status}，共 {epochs} 个轮次</translation>
    </message>
    <message>
        <source>profile of steps {first}-{last}{task} written to {path}; to view it: pip install tensorboard-plugin-profile, then tensorboard --logdir {logdir} (the Profile tab)</source>
        <translation>第 {first}-{last} 步的性能剖析{task}已写入 {path}；查看方法：pip install tensorboard-plugin-profile，然后运行 tensorboard --logdir {logdir}（Profile 标签页）</translation>
    </message>
    <message>
        <source>started (logger and CPU-feature notes; nothing to do)</source>
        <translation>已启动（日志器和 CPU 特性说明；无需处理）</translation>
    </message>
    <message>
        <source>No CUDA driver: training on the CPU (an error only if you expected a GPU)</source>
        <translation>没有 CUDA 驱动：在 CPU 上训练（只有在你预期使用 GPU 时才是错误）</translation>
    </message>
    <message>
        <source>oneDNN custom operations are on: results may differ in the last digits (TF_ENABLE_ONEDNN_OPTS=0 turns them off)</source>
        <translation>oneDNN 自定义运算已开启：结果的最后几位可能略有不同（TF_ENABLE_ONEDNN_OPTS=0 可关闭）</translation>
    </message>
    <message>
        <source>Joining the cluster</source>
        <translation>正在加入集群</translation>
    </message>
    <message>
        <source>Input pipeline notes (harmless: NumPy data is fed through Python)</source>
        <translation>输入流水线说明（无害：NumPy 数据经由 Python 输入）</translation>
    </message>
    <message>
        <source>SIGTERM noted: a multi-worker TensorFlow worker only logs it and keeps running</source>
        <translation>已收到 SIGTERM：多工作器 TensorFlow 工作器只记录它并继续运行</translation>
    </message>
    <message>
        <source>A slower all-reduce path is used (does the strategy name a device that does not exist?)</source>
        <translation>正在使用较慢的 all-reduce 路径（策略是否指定了不存在的设备？）</translation>
    </message>
    <message>
        <source>this worker coordinates the cluster</source>
        <translation>本工作器负责协调集群</translation>
    </message>
    <message>
        <source>listening on {addr} (on every interface)</source>
        <translation>正在监听 {addr}（所有网络接口）</translation>
    </message>
    <message>
        <source>{task} joined</source>
        <translation>{task} 已加入</translation>
    </message>
    <message>
        <source>waiting for {missing} of {total} workers</source>
        <translation>正在等待 {total} 个工作器中的 {missing} 个</translation>
    </message>
    <message>
        <source>not joined yet: {line}</source>
        <translation>尚未加入：{line}</translation>
    </message>
    <message>
        <source>this worker reached the coordinator</source>
        <translation>本工作器已连接到协调者</translation>
    </message>
    <message>
        <source>all workers connected; training can start</source>
        <translation>所有工作器均已连接；可以开始训练</translation>
    </message>
    <message>
        <source>: {note}</source>
        <translation>：{note}</translation>
    </message>
    <message>
        <source>{tag}TensorFlow: {topic}{detail}</source>
        <translation>{tag}TensorFlow：{topic}{detail}</translation>
    </message>
    <message>
        <source>the data held fewer than the {n} training examples counted before training</source>
        <translation>数据中的样本少于训练前统计的 {n} 个训练样本</translation>
    </message>
    <message>
        <source>{kind}: {train} training and {validation} validation examples</source>
        <translation>{kind}：{train} 个训练样本和 {validation} 个验证样本</translation>
    </message>
    <message>
        <source>decoded {images} images into memory ({mb} MB) in {seconds} s</source>
        <translation>已在 {seconds} 秒内将 {images} 张图像解码到内存（{mb} MB）</translation>
    </message>
    <message>
        <source>decoding images every epoch: {mb} MB decoded exceed the {budget} MB cache</source>
        <translation>每个轮次都解码图像：解码后 {mb} MB，超过 {budget} MB 的缓存</translation>
    </message>
    <message>
        <source>image {path} cannot be decoded ({said}); replace or delete it</source>
        <translation>无法解码图像 {path}（{said}）；请替换或删除它</translation>
    </message>
    <message>
        <source>{source}; {cache}</source>
        <translation>{source}；{cache}</translation>
    </message>
    <message>
        <source>, validation from {function}</source>
        <translation>，验证数据来自 {function}</translation>
    </message>
    <message>
        <source>python: {function}(input_context), {examples} examples per epoch{validation}; features {shape}</source>
        <translation>python：{function}(input_context)，每轮次 {examples} 个样本{validation}；特征形状 {shape}</translation>
    </message>
    <message>
        <source>Stop requested ({reason}), but {what} had not returned after {seconds:g} s; the process ends now. Finished epochs and checkpoints are kept; --resume continues from the last checkpoint.</source>
        <translation>已请求停止（{reason}），但 {what} 在 {seconds:g} 秒后仍未返回；进程现在结束。已完成的轮次和检查点均已保留；--resume 会从最后一个检查点继续。</translation>
    </message>
    <message>
        <source>the user&apos;s code ({where})</source>
        <translation>用户代码（{where}）</translation>
    </message>
    <message>
        <source>the training step</source>
        <translation>训练步骤</translation>
    </message>
    <message>
        <source>All {epochs} epochs were already finished; nothing to resume.</source>
        <translation>全部 {epochs} 个轮次都已完成；没有可继续的内容。</translation>
    </message>
    <message>
        <source>{strategy}: this coordinator schedules blocks of {steps} steps on {workers} worker(s); {ps} parameter server(s) hold the variables (sharding: {sharding}); mixed precision: {precision}</source>
        <translation>{strategy}：本协调者把每块 {steps} 步分派给 {workers} 个工作器；{ps} 个参数服务器保存变量（分片：{sharding}）；混合精度：{precision}</translation>
    </message>
    <message>
        <source>{strategy} on {devices}; all-reduce: {all_reduce}; memory growth: {growth}; mixed precision: {precision}; {workers} worker(s)</source>
        <translation>{strategy} 运行于 {devices}；all-reduce：{all_reduce}；显存按需增长：{growth}；混合精度：{precision}；{workers} 个工作器</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message>
        <source>data: {source}; shard policy: {policy}</source>
        <translation>数据：{source}；分片策略：{policy}</translation>
    </message>
    <message>
        <source>outputs logits</source>
        <translation>输出 logits</translation>
    </message>
    <message>
        <source>ends in softmax/sigmoid: the loss takes probabilities</source>
        <translation>以 softmax/sigmoid 结尾：损失函数接收概率</translation>
    </message>
    <message>
        <source>model: {where}, {params} parameters; {outputs}</source>
        <translation>模型：{where}，{params} 个参数；{outputs}</translation>
    </message>
    <message>
        <source>The evaluator task validates each checkpoint ({path}).</source>
        <translation>评估器任务验证每个检查点（{path}）。</translation>
    </message>
    <message>
        <source>No checkpoint found (no epoch was finished); starting from the first epoch.</source>
        <translation>未找到检查点（没有完成任何轮次）；从第一个轮次开始。</translation>
    </message>
    <message>
        <source>Checkpoint {why}; it was set aside and an older one is used.</source>
        <translation>检查点{why}；已将其搁置并改用较早的检查点。</translation>
    </message>
    <message>
        <source>Resuming at epoch {epoch}, step {step} from {checkpoint} in {folder}.</source>
        <translation>从 {folder} 中的 {checkpoint} 继续，位于轮次 {epoch}、步 {step}。</translation>
    </message>
    <message>
        <source>Resume: {note}.</source>
        <translation>继续：{note}。</translation>
    </message>
    <message>
        <source>cannot list {folder}: {reason}</source>
        <translation>无法列出 {folder}：{reason}</translation>
    </message>
    <message>
        <source>starting run</source>
        <translation>开始运行</translation>
    </message>
    <message>
        <source>resuming run</source>
        <translation>继续运行</translation>
    </message>
    <message>
        <source>py-spy is not installed on {host}; `pip install py-spy` there adds it</source>
        <translation>{host} 上未安装 py-spy；在该主机上运行 `pip install py-spy` 即可安装</translation>
    </message>
    <message>
        <source>py-spy is not installed; `pip install py-spy` adds it</source>
        <translation>未安装 py-spy；运行 `pip install py-spy` 安装</translation>
    </message>
    <message>
        <source>py-spy did not answer within {seconds:g} s</source>
        <translation>py-spy 在 {seconds:g} 秒内没有响应</translation>
    </message>
    <message>
        <source>py-spy could not be run: {error}</source>
        <translation>无法运行 py-spy：{error}</translation>
    </message>
    <message>
        <source>py-spy may not attach to it ({error}); run as the same user with ptrace allowed (`sudo sysctl kernel.yama.ptrace_scope=0`, or a container with CAP_SYS_PTRACE), or as root</source>
        <translation>py-spy 无法附加到该进程（{error}）；请以同一用户运行并允许 ptrace（`sudo sysctl kernel.yama.ptrace_scope=0`，或给容器加上 CAP_SYS_PTRACE），或以 root 运行</translation>
    </message>
    <message>
        <source>py-spy failed: {error}</source>
        <translation>py-spy 失败：{error}</translation>
    </message>
    <message>
        <source>No Python stacks of process {pid}: {why}</source>
        <translation>无法读取进程 {pid} 的 Python 调用栈：{why}</translation>
    </message>
    <message>
        <source>{task}: no step for {idle} s (no step time measured yet)</source>
        <translation>{task}：已 {idle} 秒没有完成步骤（尚未测得步骤用时）</translation>
    </message>
    <message>
        <source>{task}: no step for {idle} s (its steps took {took} s)</source>
        <translation>{task}：已 {idle} 秒没有完成步骤（它的每步用时 {took} 秒）</translation>
    </message>
    <message>
        <source>{task}: stepping again</source>
        <translation>{task}：已恢复训练步骤</translation>
    </message>
    <message>
        <source>every task has joined after {seconds} s</source>
        <translation>所有任务已在 {seconds} 秒后加入</translation>
    </message>
    <message>
        <source>{tasks} did not join within {timeout} s: start every task of the cluster (is it running, is its port open?), or wait longer: {variable}=SECONDS</source>
        <translation>{tasks} 未在 {timeout} 秒内加入：请启动集群的每个任务（它在运行吗？它的端口开放吗？），或等待更久：{variable}=秒数</translation>
    </message>
    <message>
        <source>waiting for {tasks} for {seconds} s (gives up after {timeout} s: {variable})</source>
        <translation>正在等待 {tasks}，已等待 {seconds} 秒（{timeout} 秒后放弃：{variable}）</translation>
    </message>
    <message>
        <source>stopped while waiting for {tasks} ({reason})</source>
        <translation>等待 {tasks} 时已停止（{reason}）</translation>
    </message>
    <message>
        <source>{task} at {address}</source>
        <translation>{task}（{address}）</translation>
    </message>
    <message>
        <source>{where} returned a compiled model: its compile() settings (optimizer {theirs}, loss {loss}) are not used; the run trains with the config&apos;s optimizer ({optimizer}, learning rate {lr:g}) and a loss that follows the labels. Set them in the run config, and return the model uncompiled.</source>
        <translation>{where} 返回了已编译的模型：其 compile() 设置（优化器 {theirs}，损失 {loss}）不会被使用；本次运行使用配置中的优化器（{optimizer}，学习率 {lr:g}）以及根据标签确定的损失函数。请在运行配置中设置它们，并返回未编译的模型。</translation>
    </message>
    <message>
        <source>{tasks} tasks are too many: this machine holds about {limit} TensorFlow processes ({memory} MB available, about {per_task} MB each; {cores} cores); start fewer, or add --force to start them anyway</source>
        <translation>{tasks} 个任务过多：本机约可容纳 {limit} 个 TensorFlow 进程（可用内存 {memory} MB，每个约 {per_task} MB；{cores} 个核心）；请减少任务，或加上 --force 仍然启动</translation>
    </message>
    <message>
        <source>{root} is a file, not a folder for runs; give a folder (or a path that does not exist yet)</source>
        <translation>{root} 是文件，不是存放运行的文件夹；请给出一个文件夹（或尚不存在的路径）</translation>
    </message>
    <message>
        <source>input-bound: {percent} % of each step waits for data</source>
        <translation>受输入限制：每步 {percent} % 的时间在等待数据</translation>
    </message>
    <message>
        <source>synchronisation-bound: {percent} % of each step synchronises replicas</source>
        <translation>受同步限制：每步 {percent} % 的时间在同步副本</translation>
    </message>
    <message>
        <source>host-bound: {percent} % of each step is Python, callbacks and events</source>
        <translation>受主机限制：每步 {percent} % 的时间花在 Python、回调和事件上</translation>
    </message>
    <message>
        <source>compute-bound: {percent} % of each step computes</source>
        <translation>受计算限制：每步 {percent} % 的时间在计算</translation>
    </message>
    <message>
        <source>step {step_ms:.1f} ms: input {input} %, compute {compute} %, sync {sync} %, rest {rest} % ({verdict})</source>
        <translation>每步 {step_ms:.1f} 毫秒：输入 {input} %，计算 {compute} %，同步 {sync} %，其余 {rest} %（{verdict}）</translation>
    </message>
    <message>
        <source>Dense layers (the tutorial&apos;s model); images are flattened</source>
        <translation>Dense 层（教程中的模型）；图像会被展平</translation>
    </message>
    <message>
        <source>a sweep&apos;s trials train on this machine: use one of {allowed}</source>
        <translation>扫描的试验在本机上训练：请使用以下之一：{allowed}</translation>
    </message>
    <message>
        <source>this machine has {n} GPU(s)</source>
        <translation>本机有 {n} 个 GPU</translation>
    </message>
    <message>
        <source>vary the global batch as a choice of sizes, so each can be checked against the replicas</source>
        <translation>请以若干候选值（choice）改变全局批大小，以便逐一检查能否被副本数整除</translation>
    </message>
    <message>
        <source>is not a sweep folder: {exc}</source>
        <translation>不是扫描文件夹：{exc}</translation>
    </message>
    <message>
        <source>must be null (no limit) or seconds &gt; 0</source>
        <translation>必须为 null（不限时）或大于 0 的秒数</translation>
    </message>
    <message>
        <source>must name at least one field, e.g. {{&quot;learning_rate&quot;: {{&quot;log_uniform&quot;: [0.0001, 0.1]}}}}</source>
        <translation>必须至少指定一个字段，例如 {{&quot;learning_rate&quot;: {{&quot;log_uniform&quot;: [0.0001, 0.1]}}}}</translation>
    </message>
    <message>
        <source>is set by the sweep itself, not varied</source>
        <translation>由扫描自身设置，不能改变</translation>
    </message>
    <message>
        <source>{change}: {why}</source>
        <translation>{change}：{why}</translation>
    </message>
    <message>
        <source>no change on offer: the config already has the changes that address this</source>
        <translation>没有可提供的更改：配置已包含针对此问题的更改</translation>
    </message>
    <message>
        <source>the run trained on other machines ({hosts}); a trial would run on this machine and measure its devices, not theirs: apply the change and compare a new run on those machines</source>
        <translation>该运行在其他机器（{hosts}）上训练；试验会在本机运行，测的是本机的设备而不是那些机器的：请应用这项更改，在那些机器上新跑一次再比较</translation>
    </message>
    <message>
        <source>the run did not say which CPU trained it, so whether that CPU computes {precision} natively is unknown</source>
        <translation>该运行没有说明训练它的是哪颗 CPU，因此不知道那颗 CPU 能否原生计算 {precision}</translation>
    </message>
    <message>
        <source>{first}; {rest}</source>
        <translation>{first}；{rest}</translation>
    </message>
    <message>
        <source>no change on offer: {reasons}</source>
        <translation>没有可提供的更改：{reasons}</translation>
    </message>
    <message>
        <source>no change on offer: {changes} cannot run on these devices or would not help</source>
        <translation>没有可提供的更改：{changes} 在这些设备上无法运行或不会有帮助</translation>
    </message>
    <message>
        <source>not a field of the run config</source>
        <translation>不是运行配置中的字段</translation>
    </message>
    <message>
        <source>read the examples into memory once, before training: every epoch after takes its batches from memory (they must fit in memory)</source>
        <translation>训练前把样本一次读入内存：之后每个轮次都从内存取批次（样本必须放得进内存）</translation>
    </message>
    <message>
        <source>your make_dataset feeds every step: add num_parallel_calls=tf.data.AUTOTUNE to its map calls, and .cache() after the slow part when the examples fit in memory</source>
        <translation>每一步都在等你的 make_dataset：给其中的 map 调用加上 num_parallel_calls=tf.data.AUTOTUNE，样本放得进内存时在慢的部分之后加 .cache()</translation>
    </message>
    <message>
        <source>CSV text is parsed again every epoch: save the data as NPZ (held in memory) or as TFRecord files</source>
        <translation>CSV 文本每个轮次都要重新解析：把数据存为 NPZ（保存在内存中）或 TFRecord 文件</translation>
    </message>
    <message>
        <source>images are decoded every epoch when they exceed the cache: a smaller data.image_size fits more</source>
        <translation>图像超出缓存时每个轮次都要重新解码：较小的 data.image_size 能缓存更多</translation>
    </message>
    <message>
        <source>split the records over more files: tf.data reads several files at once</source>
        <translation>把记录分到更多文件中：tf.data 会同时读取多个文件</translation>
    </message>
    <message>
        <source>the examples are in memory already: the time is spent handing batches to the devices</source>
        <translation>样本已在内存中：时间花在把批次交给设备上</translation>
    </message>
    <message>
        <source>float16 runs on the GPUs&apos; tensor cores (compute capability 7.0 or newer): up to 2-3× faster</source>
        <translation>float16 在 GPU 的张量核心上运行（计算能力 7.0 或更高）：最多快 2-3 倍</translation>
    </message>
    <message>
        <source>this CPU computes in bfloat16 natively: half the bytes</source>
        <translation>此 CPU 原生支持 bfloat16 计算：字节数减半</translation>
    </message>
    <message>
        <source>XLA compiles the step into fused kernels: fewer, larger operations</source>
        <translation>XLA 把训练步编译成融合的内核：操作更少、更大</translation>
    </message>
    <message>
        <source>sum the gradients with {choice} instead of {current}</source>
        <translation>用 {choice} 而不是 {current} 对梯度求和</translation>
    </message>
    <message>
        <source>all-reduce the gradients in packs of {mb} MB: fewer, larger messages between workers</source>
        <translation>以每包 {mb} MB 对梯度做 all-reduce：工作器之间的消息更少、更大</translation>
    </message>
    <message>
        <source>the {replicas} replicas are logical devices of one CPU and share its cores: splitting each batch among them and summing their gradients is work that one replica, training the same global batch on all the cores, does not do (the smaller the model&apos;s step, the more it gains)</source>
        <translation>这 {replicas} 个副本是同一个 CPU 上的逻辑设备，共用它的核心：把每个批次分给各副本、对梯度求和，是一个副本用全部核心训练同样的全局批次时不必做的工作（模型的训练步越小，收益越大）</translation>
    </message>
    <message>
        <source>each all-reduce then serves twice the examples; the loss curve changes with the batch (the learning rate may need to grow with it)</source>
        <translation>这样每次 all-reduce 服务两倍的样本；损失曲线会随批次改变（学习率可能需要随之增大）</translation>
    </message>
    <message>
        <source>run more steps per call: Python&apos;s cost of a call is paid once for many steps</source>
        <translation>每次调用运行更多步：Python 的调用开销由许多步分摊</translation>
    </message>
    <message>
        <source>{change}: no speed-up measured (a run failed or was cancelled)</source>
        <translation>{change}：未测得加速（有一次运行失败或被取消）</translation>
    </message>
    <message>
        <source>{change}: {factor:.2f}× the examples/s ({low:.2f}-{high:.2f} over {pairs} pairs of runs)</source>
        <translation>{change}：样本/秒为原来的 {factor:.2f}×（{pairs} 对运行之间为 {low:.2f}-{high:.2f}）</translation>
    </message>
    <message>
        <source>a choice needs a non-empty list of values</source>
        <translation>choice 需要一个非空的取值列表</translation>
    </message>
    <message>
        <source>a range is [low, high], two numbers</source>
        <translation>范围是 [下限, 上限] 两个数</translation>
    </message>
    <message>
        <source>an empty range: low must be below high</source>
        <translation>空范围：下限必须小于上限</translation>
    </message>
    <message>
        <source>a log-uniform range must be above 0</source>
        <translation>对数均匀分布的范围必须大于 0</translation>
    </message>
    <message>
        <source>an int range is two whole numbers</source>
        <translation>整数范围是两个整数</translation>
    </message>
    <message>
        <source>keyword arguments go to a python model&apos;s function; the base config&apos;s model is {kind}</source>
        <translation>关键字参数只传给 python 模型的函数；基础配置的模型是 {kind}</translation>
    </message>
    <message>
        <source>a grid needs choices or int ranges; these are continuous: {names}</source>
        <translation>网格搜索需要候选值或整数范围；以下参数是连续的：{names}</translation>
    </message>
    <message>
        <source>the grid has {n:,} points; at most {limit:,}</source>
        <translation>网格有 {n:,} 个点；最多 {limit:,} 个</translation>
    </message>
    <message>
        <source>needs validation data: set validation_split above 0 in the base config, or use loss</source>
        <translation>需要验证数据：请在基础配置中把 validation_split 设为大于 0，或改用 loss</translation>
    </message>
    <message>
        <source>comes once two trials have completed</source>
        <translation>两个试验完成后才会给出</translation>
    </message>
    <message>
        <source>the run gives no {objective}: it has no validation data</source>
        <translation>该运行不提供 {objective}：它没有验证数据</translation>
    </message>
    <message>
        <source>already holds a sweep: continue it with --resume</source>
        <translation>已包含一个扫描：请用 --resume 继续它</translation>
    </message>
    <message>
        <source>stayed about the same</source>
        <translation>基本不变</translation>
    </message>
    <message>
        <source>fell {factor:.1f}×</source>
        <translation>降到原来的 1/{factor:.1f}</translation>
    </message>
    <message>
        <source>rose {factor:.1f}×</source>
        <translation>增加到原来的 {factor:.1f} 倍</translation>
    </message>
    <message>
        <source>grew from {before} to {after} %</source>
        <translation>从 {before} % 增加到 {after} %</translation>
    </message>
    <message>
        <source>fell from {before} to {after} %</source>
        <translation>从 {before} % 降到 {after} %</translation>
    </message>
    <message>
        <source>stayed at {before} %</source>
        <translation>保持在 {before} %</translation>
    </message>
    <message>
        <source>From {low} to {high} workers the computing time per step {compute}, synchronising {sync}.</source>
        <translation>从 {low} 个工作器到 {high} 个工作器，每步计算时间{compute}，同步占比{sync}。</translation>
    </message>
    <message>
        <source>From {low} to {high} replicas the computing time per step {compute}, synchronising {sync}.</source>
        <translation>从 {low} 个副本到 {high} 个副本，每步计算时间{compute}，同步占比{sync}。</translation>
    </message>
    <message>
        <source>The run folder {folder} is gone (deleted, moved or unmounted); stopped watching it.</source>
        <translation>运行文件夹 {folder} 已不存在（被删除、移动或卸载）；已停止观看。</translation>
    </message>
    <message>
        <source>The run&apos;s process let go of its lock without recording its end: it was killed, or its machine went down. Resume it from its last checkpoint in the Runs tab.</source>
        <translation>该运行的进程释放了运行锁，却没有记录运行结束：它被强制结束了，或者它所在的机器宕机了。可在“运行记录”页从最后一个检查点继续。</translation>
    </message>
    <message>
        <source>empty: write [user@]host[:port]</source>
        <translation>为空：请写 [user@]host[:port]</translation>
    </message>
    <message>
        <source>not a host: write [user@]host[:port] (a name, an address or an ssh alias)</source>
        <translation>不是主机：请写 [user@]host[:port]（主机名、地址或 ssh 别名）</translation>
    </message>
    <message>
        <source>a port is between 1 and 65535</source>
        <translation>端口应在 1 到 65535 之间</translation>
    </message>
    <message>
        <source>not an option: write {options}</source>
        <translation>不是有效选项：请写 {options}</translation>
    </message>
    <message>
        <source>{key}= is given twice</source>
        <translation>{key}= 给出了两次</translation>
    </message>
    <message>
        <source>give python= or venv= (the venv&apos;s python runs), not both</source>
        <translation>请给出 python= 或 venv=（运行该虚拟环境的 python），不要同时给出</translation>
    </message>
    <message>
        <source>no host: write [user@]host[:port], comma separated, or a file</source>
        <translation>没有主机：请写 [user@]host[:port]，以逗号分隔，或给出一个文件</translation>
    </message>
    <message>
        <source>{hosts} hosts for {tasks} tasks: these would run nothing</source>
        <translation>{hosts} 台主机对应 {tasks} 个任务：这些主机将不运行任何任务</translation>
    </message>
    <message>
        <source>write a change as field=value, e.g. jit_compile=true</source>
        <translation>把更改写成 字段=值，例如 jit_compile=true</translation>
    </message>
    <message>
        <source>give at least one change, e.g. --change jit_compile=true</source>
        <translation>至少给出一项更改，例如 --change jit_compile=true</translation>
    </message>
    <message>
        <source>the config already has these values</source>
        <translation>配置中已经是这些值</translation>
    </message>
    <message>
        <source>A profile of steps {steps} is already being captured; the request for {asked} more steps was ignored. Ask again once its profile_saved line is in the log.</source>
        <translation>正在采集第 {steps} 步的性能剖析；再采集 {asked} 步的请求已忽略。日志中出现它的 profile_saved 行后再请求。</translation>
    </message>
    <message>
        <source>No profile of steps {steps}: a cluster&apos;s task does not profile its first call, which traces the step function (TensorFlow&apos;s profiler crashed there); ask for steps from {at} on.</source>
        <translation>未采集第 {steps} 步的性能剖析：集群任务不剖析其第一次调用（该调用追踪训练步函数，TensorFlow 的剖析器曾在此崩溃）；请请求第 {at} 步及以后的步。</translation>
    </message>
    <message>
        <source>No profile of steps {steps}: this run continued at step {at}, after them.</source>
        <translation>未采集第 {steps} 步的性能剖析：本次运行从第 {at} 步继续，已在这些步之后。</translation>
    </message>
    <message>
        <source>No profile of steps {steps}: TensorFlow&apos;s profiler did not start ({why}).</source>
        <translation>未采集第 {steps} 步的性能剖析：TensorFlow 的剖析器未能启动（{why}）。</translation>
    </message>
    <message>
        <source>No profile of steps {steps}: the run ended before step {first}.</source>
        <translation>未采集第 {steps} 步的性能剖析：运行在第 {first} 步之前就结束了。</translation>
    </message>
    <message>
        <source>The run ended at step {last}, before step {end}: the profile holds steps {first}-{last}.</source>
        <translation>运行在第 {last} 步结束，早于第 {end} 步：性能剖析包含第 {first}-{last} 步。</translation>
    </message>
    <message>
        <source>TensorFlow&apos;s profiler wrote no profile of steps {first}-{last}.</source>
        <translation>TensorFlow 的剖析器没有写出第 {first}-{last} 步的性能剖析。</translation>
    </message>
    <message>
        <source>No profile of steps {steps}: under parameter_server the steps run on the workers, which this coordinator does not profile.</source>
        <translation>未采集第 {steps} 步的性能剖析：parameter_server 下训练步在各 worker 上运行，本协调器不对其剖析。</translation>
    </message>
    <message>
        <source>{host}: no Python at `{python}` (`python=` or `venv=` in the host&apos;s row says which runs)</source>
        <translation>{host}：`{python}` 处没有 Python（主机行中的 `python=` 或 `venv=` 指定由哪个 Python 运行）</translation>
    </message>
    <message>
        <source>no output</source>
        <translation>无输出</translation>
    </message>
    <message>
        <source>{host}: `{python}` could not run the check ({said})</source>
        <translation>{host}：`{python}` 无法运行检查（{said}）</translation>
    </message>
    <message>
        <source>{host}: `{python}` is Python {version}; the tasks need {wanted} (name another with python= or venv= in the host&apos;s row)</source>
        <translation>{host}：`{python}` 是 Python {version}；任务需要 {wanted}（请在主机行中用 python= 或 venv= 指定其他解释器）</translation>
    </message>
    <message>
        <source>{host}: the dashboard is not installed for `{python}`; install it there: `{install}`</source>
        <translation>{host}：`{python}` 未安装本仪表板；请在该主机上安装：`{install}`</translation>
    </message>
    <message>
        <source>{host}: the dashboard there is version {there}, here {here}; the same one must run everywhere: `{install}`</source>
        <translation>{host}：该主机上的仪表板版本为 {there}，本机为 {here}；所有主机必须运行同一版本：`{install}`</translation>
    </message>
    <message>
        <source>{host}: the data path {path} does not exist there (each host reads its own)</source>
        <translation>{host}：数据路径 {path} 在该主机上不存在（每台主机读取自己的数据）</translation>
    </message>
    <message>
        <source>{host}: port {port} is in use there; a task of this cluster listens on it (pick other ports)</source>
        <translation>{host}：端口 {port} 在该主机上已被占用；本集群的一个任务要监听它（请换用其他端口）</translation>
    </message>
    <message>
        <source>{host}: only {free_mb:,.0f} MB free in {folder}; checkpoints need at least {need_gb:g} GB (free some, or name another folder= in the host&apos;s row)</source>
        <translation>{host}：{folder} 中只有 {free_mb:,.0f} MB 可用空间；检查点至少需要 {need_gb:g} GB（请释放空间，或在主机行中用 folder= 指定其他文件夹）</translation>
    </message>
    <message>
        <source>{line}
{more}</source>
        <translation>{line}
{more}</translation>
    </message>
    <message>
        <source>nothing was started; the hosts are not ready:
{problems}</source>
        <translation>未启动任何任务；以下主机尚未就绪：
{problems}</translation>
    </message>
    <message>
        <source>No profile: the tasks of a cluster on other machines are not asked for one yet</source>
        <translation>未采集性能剖析：尚不能向其他机器上的集群任务请求性能剖析</translation>
    </message>
    <message>
        <source>{problem}; the run stays there</source>
        <translation>{problem}；运行结果仍保留在该主机上</translation>
    </message>
    <message>
        <source>ssh could not run ({error}): install the OpenSSH client</source>
        <translation>无法运行 ssh（{error}）：请安装 OpenSSH 客户端</translation>
    </message>
    <message>
        <source>{host}: copying to {folder} failed: {said}</source>
        <translation>{host}：复制到 {folder} 失败：{said}</translation>
    </message>
    <message>
        <source>{host}: copying {folder} back failed: {said}</source>
        <translation>{host}：将 {folder} 复制回本机失败：{said}</translation>
    </message>
    <message>
        <source>no message</source>
        <translation>无消息</translation>
    </message>
    <message>
        <source>{host}: its host key has CHANGED since it was added to known_hosts (a reinstalled machine, or someone in between): check the key with the host&apos;s owner before anything else; then `ssh-keygen -R {address}` and connect once with `ssh {target}` in a terminal</source>
        <translation>{host}：其主机密钥自加入 known_hosts 以来已发生变化（机器被重装，或有人在中间拦截）：请先与主机管理员核对密钥；然后运行 `ssh-keygen -R {address}`，并在终端中用 `ssh {target}` 连接一次</translation>
    </message>
    <message>
        <source>{host}: its host key is not known here, and is never accepted unchecked: connect once with `ssh {target}` in a terminal and compare the fingerprint with the one the host&apos;s owner gives you (`ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub` there)</source>
        <translation>{host}：本机不认识其主机密钥，未经核对的密钥绝不会被接受：请在终端中用 `ssh {target}` 连接一次，并将指纹与主机管理员提供的指纹比对（在该主机上运行 `ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub`）</translation>
    </message>
    <message>
        <source>{host}: authentication refused (a password is never asked for): set up a key with `ssh-keygen -t ed25519` and `ssh-copy-id {target}`, or add your key to the ssh agent (`ssh-add`)</source>
        <translation>{host}：认证被拒绝（从不询问密码）：请用 `ssh-keygen -t ed25519` 和 `ssh-copy-id {target}` 设置密钥，或将密钥加入 ssh agent（`ssh-add`）</translation>
    </message>
    <message>
        <source>{host}: the connection was lost ({said})</source>
        <translation>{host}：连接已断开（{said}）</translation>
    </message>
    <message>
        <source>{host}: the connection was lost ({said}); the host is down or the network dropped</source>
        <translation>{host}：连接已断开（{said}）；主机已宕机或网络中断</translation>
    </message>
    <message>
        <source>{host}: unreachable ({said})</source>
        <translation>{host}：无法连接（{said}）</translation>
    </message>
    <message>
        <source>the tasks run on other machines (--hosts)</source>
        <translation>任务在其他机器上运行（--hosts）</translation>
    </message>
    <message>
        <source>The workers run in a private network namespace: their ports exist on no interface of this machine, so no one else can reach TensorFlow&apos;s unauthenticated servers.</source>
        <translation>各 worker 运行在私有网络命名空间中：它们的端口不存在于本机的任何网络接口上，因此其他人无法访问 TensorFlow 未经认证的服务器。</translation>
    </message>
    <message>
        <source>The workers&apos; ports can be reached from other machines: {reason}. TensorFlow&apos;s gRPC servers listen on every interface and accept anyone (no authentication); on an untrusted network, block the ports with a firewall.</source>
        <translation>其他机器可以访问各 worker 的端口：{reason}。TensorFlow 的 gRPC 服务器监听所有网络接口并接受任何人（无认证）；在不受信任的网络上，请用防火墙封锁这些端口。</translation>
    </message>
    <message>
        <source>{task} has ended: no profile was asked of it</source>
        <translation>{task} 已结束：未向它请求性能剖析</translation>
    </message>
    <message>
        <source>its {objective} is not a number at epoch {epoch}: it diverged</source>
        <translation>它的 {objective} 在第 {epoch} 轮不是数值：已发散</translation>
    </message>
    <message>
        <source>its best {objective} so far, {value:.4g}, is worse than the median {median:.4g} of the {count} completed trials at epoch {epoch}</source>
        <translation>它目前最好的 {objective} 为 {value:.4g}，差于 {count} 个已完成试验在第 {epoch} 轮的中位数 {median:.4g}</translation>
    </message>
    <message>
        <source>its {objective} {value:.4g} at epoch {epoch} is not among the best of the trials that reached that epoch</source>
        <translation>它在第 {epoch} 轮的 {objective} 为 {value:.4g}，不在到达该轮的试验中最好的那一部分之列</translation>
    </message>
</context>
<context>
    <name>AnatomyBars</name>
    <message>
        <source>ms per step</source>
        <translation>每步毫秒数</translation>
    </message>
    <message>
        <source>{ms:.1f} ms</source>
        <translation>{ms:.1f} 毫秒</translation>
    </message>
</context>
<context>
    <name>AnatomyPlot</name>
    <message>
        <source>waiting for input</source>
        <translation>等待输入</translation>
    </message>
    <message>
        <source>computing</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>synchronising</source>
        <translation>同步</translation>
    </message>
    <message>
        <source>the rest</source>
        <translation>其余</translation>
    </message>
    <message>
        <source>input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>compute</source>
        <translation>计算</translation>
    </message>
    <message>
        <source>sync</source>
        <translation>同步</translation>
    </message>
    <message>
        <source>rest</source>
        <translation>其余</translation>
    </message>
    <message>
        <source>Step anatomy</source>
        <translation>步骤剖析</translation>
    </message>
    <message>
        <source>ms per step</source>
        <translation>每步毫秒数</translation>
    </message>
</context>
<context>
    <name>App</name>
    <message>
        <source>TF Distributed Dashboard</source>
        <translation>TF 分布式训练仪表板</translation>
    </message>
</context>
<context>
    <name>Closing</name>
    <message>
        <source>Keep running: the run saves a checkpoint and goes on without the window (&lt;code&gt;tfdd train --resume&lt;/code&gt;), printing to launcher.log in its folder. Watch it live or stop it from its row in the Runs tab.&lt;br&gt;Stop: the run saves a checkpoint; Resume in the Runs tab continues it later.&lt;br&gt;Finished epochs are kept either way.</source>
        <translation>继续运行：这次运行先保存检查点，然后在窗口关闭后继续（&lt;code&gt;tfdd train --resume&lt;/code&gt;），输出写入其文件夹中的 launcher.log。可在“运行记录”标签页中它的行上实时观看或停止它。&lt;br&gt;停止：这次运行保存检查点；之后在“运行记录”标签页中点“恢复”即可继续。&lt;br&gt;无论哪种方式，已完成的轮次都会保留。</translation>
    </message>
    <message>
        <source>Keep running: the training trials save a checkpoint and the sweep goes on without the window, printing to sweep.log in its folder. Open it again from its row in the Runs tab (or Run › Sweep › Open a sweep…), or see it with &lt;code&gt;tfdd sweep --status FOLDER&lt;/code&gt;.&lt;br&gt;Stop: the training trials save a checkpoint; Continue in the sweep&apos;s view resumes it later.&lt;br&gt;Finished trials are kept either way.</source>
        <translation>继续运行：正在训练的试验先保存检查点，扫描在窗口关闭后继续，输出写入其文件夹中的 sweep.log。可从“运行记录”标签页中它的行（或 运行 › 超参数扫描 › 打开超参数扫描…）再次打开，或用 &lt;code&gt;tfdd sweep --status FOLDER&lt;/code&gt; 查看。&lt;br&gt;停止：正在训练的试验保存检查点；之后在扫描视图中点“继续”即可恢复。&lt;br&gt;无论哪种方式，已完成的试验都会保留。</translation>
    </message>
    <message>
        <source>A run is in progress</source>
        <translation>有运行正在进行</translation>
    </message>
    <message>
        <source>A sweep is running</source>
        <translation>一个超参数扫描正在运行</translation>
    </message>
    <message>
        <source>Training now, in:</source>
        <translation>正在训练，位于：</translation>
    </message>
    <message>
        <source>Keep running</source>
        <translation>继续运行</translation>
    </message>
    <message>
        <source>Stop the sweep</source>
        <translation>停止扫描</translation>
    </message>
    <message>
        <source>Stop the run</source>
        <translation>停止运行</translation>
    </message>
    <message>
        <source>Stop them</source>
        <translation>全部停止</translation>
    </message>
    <message>
        <source>It could not start: %1</source>
        <translation>无法启动：%1</translation>
    </message>
    <message>
        <source>It stopped and was not continued in the background.</source>
        <translation>它已停止，没有在后台继续运行。</translation>
    </message>
    <message>
        <source>Nothing finished is lost.</source>
        <translation>已完成的部分不会丢失。</translation>
    </message>
    <message>
        <source>Continue it from a terminal with:</source>
        <translation>可在终端中用以下命令继续：</translation>
    </message>
    <message>
        <source>Not kept running</source>
        <translation>未能继续运行</translation>
    </message>
</context>
<context>
    <name>ClusterEditor</name>
    <message>
        <source>Write start scripts, a README and a Kubeflow TFJob for each task, or a Slurm job</source>
        <translation>为每个任务写出启动脚本、README 和 Kubeflow TFJob，或一个 Slurm 作业</translation>
    </message>
    <message>
        <source>Run these tasks on this machine with the run form&apos;s config; the Live tab shows each with its role</source>
        <translation>用运行表单的配置在本机运行这些任务；实时标签页会显示每个任务及其角色</translation>
    </message>
    <message>
        <source>Start each task over SSH on its machine (your keys, ssh config and known hosts apply; every machine is checked first), with the run form&apos;s config; the Live tab shows each with its role</source>
        <translation>通过 SSH 在各任务的机器上启动它（使用你的密钥、ssh 配置和 known_hosts；先检查每台机器），使用运行表单的配置；实时页显示每个任务及其角色</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>（无）</translation>
    </message>
    <message>
        <source>The job of the process this TF_CONFIG is for; {no_task}: a cluster description shared by all tasks (what export uses)</source>
        <translation>此 TF_CONFIG 所属进程的作业；{no_task}：所有任务共用的集群描述（导出时使用）</translation>
    </message>
    <message>
        <source>&amp;Import file…</source>
        <translation>导入文件(&amp;I)…</translation>
    </message>
    <message>
        <source>Read a TF_CONFIG or cluster.json file</source>
        <translation>读取 TF_CONFIG 或 cluster.json 文件</translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation>粘贴(&amp;P)</translation>
    </message>
    <message>
        <source>Read a TF_CONFIG from the clipboard</source>
        <translation>从剪贴板读取 TF_CONFIG</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <source>Copy the TF_CONFIG as one line, as the environment variable wants it</source>
        <translation>按环境变量的要求，把 TF_CONFIG 复制为一行</translation>
    </message>
    <message>
        <source>Start here</source>
        <translation>在本机启动</translation>
    </message>
    <message>
        <source>Start on these machines</source>
        <translation>在这些机器上启动</translation>
    </message>
    <message>
        <source>Export for other machines…</source>
        <translation>导出供其他机器使用…</translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Add task</source>
        <translation>添加任务</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>删除</translation>
    </message>
    <message>
        <source>Remove the selected tasks</source>
        <translation>删除所选任务</translation>
    </message>
    <message>
        <source>This process:</source>
        <translation>本进程：</translation>
    </message>
    <message>
        <source>index</source>
        <translation>索引</translation>
    </message>
    <message>
        <source>TF_CONFIG (JSON)</source>
        <translation>TF_CONFIG（JSON）</translation>
    </message>
    <message>
        <source>Problems</source>
        <translation>问题</translation>
    </message>
    <message>
        <source>Every role runs: chief, worker, ps (parameter_server) and evaluator. Start here runs these tasks on this machine (127.0.0.1, the ports above) with the run form&apos;s config, each shown in the Live tab with its role; the run form&apos;s Start does the same on free ports. Start on these machines starts each task over SSH on the machine its row names (the Machine column). Or export the cluster (start scripts and a Kubeflow TFJob, or a Slurm job) and start each task there.</source>
        <translation>所有角色都会运行：chief、worker、ps（parameter_server）和 evaluator。“在本机启动”使用运行表单的配置在本机（127.0.0.1，上面的端口）运行这些任务，每个任务及其角色显示在实时页中；运行表单的“开始”在空闲端口上做同样的事。“在这些机器上启动”通过 SSH 在每行所写的机器（“机器”列）上启动各任务。也可以导出集群（启动脚本和 Kubeflow TFJob，或 Slurm 作业），再在各机器上启动每个任务。</translation>
    </message>
    <message>
        <source>Name the machine of each task in the Machine column (user@host or an ssh alias)</source>
        <translation>请在“机器”列中为每个任务填写机器（user@host 或 ssh 别名）</translation>
    </message>
    <message>
        <source>{task} has no machine: name one for every task</source>
        <translation>{task} 没有机器：请为每个任务填写一台</translation>
    </message>
    <message>
        <source>{source} holds no TF_CONFIG: {problem}</source>
        <translation>{source} 中没有 TF_CONFIG：{problem}</translation>
    </message>
    <message>
        <source>Imported {source}.</source>
        <translation>已导入 {source}。</translation>
    </message>
    <message>
        <source>Cannot read {path}: {error}</source>
        <translation>无法读取 {path}：{error}</translation>
    </message>
    <message>
        <source>Import TF_CONFIG</source>
        <translation>导入 TF_CONFIG</translation>
    </message>
    <message>
        <source>JSON files (*.json);;All files (*)</source>
        <translation>JSON 文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>the clipboard</source>
        <translation>剪贴板</translation>
    </message>
    <message>
        <source>Copied the TF_CONFIG (one line) to the clipboard.</source>
        <translation>已把 TF_CONFIG（一行）复制到剪贴板。</translation>
    </message>
    <message>
        <source>The table keeps the last valid cluster.</source>
        <translation>表格保留最后一个有效的集群。</translation>
    </message>
    <message>
        <source> (checked for strategy {strategy})</source>
        <translation>（按策略 {strategy} 检查）</translation>
    </message>
    <message numerus="yes">
        <source>%n error(s)</source>
        <translation>
            <numerusform>%n 个错误</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n warning(s)</source>
        <translation>
            <numerusform>，%n 个警告</numerusform>
        </translation>
    </message>
    <message>
        <source>No problems{against}.</source>
        <translation>没有问题{against}。</translation>
    </message>
    <message>
        <source>Fix the errors first</source>
        <translation>请先修正错误</translation>
    </message>
    <message>
        <source>Tasks on other machines ({address}) are started there: export the cluster</source>
        <translation>其他机器上的任务（{address}）需要在那里启动：请导出集群</translation>
    </message>
</context>
<context>
    <name>ClusterExportDialog</name>
    <message>
        <source>The machines in the table: start scripts (sh, PowerShell) and a Kubeflow TFJob</source>
        <translation>表格中的机器：启动脚本（sh、PowerShell）和 Kubeflow TFJob</translation>
    </message>
    <message>
        <source>A Slurm job: an sbatch script; Slurm picks the nodes, one per task</source>
        <translation>Slurm 作业：一个 sbatch 脚本；由 Slurm 选择节点，每个任务一个</translation>
    </message>
    <message>
        <source>Export the cluster for other machines</source>
        <translation>导出集群供其他机器使用</translation>
    </message>
    <message>
        <source>run form, {field}: {problem}</source>
        <translation>运行表单，{field}：{problem}</translation>
    </message>
    <message numerus="yes">
        <source>Writes what the %n task(s) of the Cluster tab need, with the run form&apos;s config ({strategy}, {epochs} epochs, global batch {global_batch_size}). Every task runs the same train command; its TF_CONFIG says what it is.</source>
        <translation>
            <numerusform>写出集群标签页中 %n 个任务所需的文件，使用运行表单的配置（{strategy}，{epochs} 个轮次，全局批处理大小 {global_batch_size}）。每个任务运行同一条训练命令；由各自的 TF_CONFIG 说明其身份。</numerusform>
        </translation>
    </message>
    <message>
        <source>none (CPU nodes)</source>
        <translation>无（CPU 节点）</translation>
    </message>
    <message>
        <source>GPUs each node asks Slurm for (#SBATCH --gpus-per-node)</source>
        <translation>每个节点向 Slurm 申请的 GPU 数（#SBATCH --gpus-per-node）</translation>
    </message>
    <message>
        <source>The port every task listens on, on its node</source>
        <translation>每个任务在其节点上监听的端口</translation>
    </message>
    <message>
        <source>&amp;GPUs per node:</source>
        <translation>每节点 GPU 数(&amp;G)：</translation>
    </message>
    <message>
        <source>P&amp;ort:</source>
        <translation>端口(&amp;O)：</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>&amp;Folder:</source>
        <translation>文件夹(&amp;F)：</translation>
    </message>
    <message>
        <source>After the export: what to copy where, and how to start it.</source>
        <translation>导出后：需要把什么复制到哪里，以及如何启动。</translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <source>F&amp;or:</source>
        <translation>目标(&amp;O)：</translation>
    </message>
    <message>
        <source>Fix these first:</source>
        <translation>请先修正这些问题：</translation>
    </message>
    <message>
        <source>Choose a folder to write the bundle to.</source>
        <translation>请选择写出导出包的文件夹。</translation>
    </message>
    <message>
        <source>{out} holds other files, so nothing was written there. Proposed instead: {fresh} (Export writes it; or choose another folder).</source>
        <translation>{out} 中有其他文件，因此没有写入任何内容。建议改用：{fresh}（点击导出即写入；或另选文件夹）。</translation>
    </message>
    <message>
        <source>Could not write the bundle: {error}</source>
        <translation>无法写出导出包：{error}</translation>
    </message>
    <message>
        <source>how to submit it</source>
        <translation>如何提交</translation>
    </message>
    <message>
        <source>what to copy where</source>
        <translation>把什么复制到哪里</translation>
    </message>
    <message numerus="yes">
        <source>Wrote %n file(s) to {out}. Next: {what} (README.md):</source>
        <translation>
            <numerusform>已向 {out} 写入 %n 个文件。下一步：{what}（README.md）：</numerusform>
        </translation>
    </message>
    <message>
        <source>Replace the bundle?</source>
        <translation>替换导出包？</translation>
    </message>
    <message>
        <source>{out} holds a bundle exported before. It is replaced (task folders it no longer has are removed); files of your own in it stay. Export there?</source>
        <translation>{out} 中有之前导出的导出包。它会被替换（不再需要的任务文件夹会被删除）；你自己的文件会保留。导出到那里吗？</translation>
    </message>
    <message>
        <source>Export the bundle to</source>
        <translation>把导出包导出到</translation>
    </message>
</context>
<context>
    <name>ClusterTable</name>
    <message>
        <source>Job</source>
        <translation>作业</translation>
    </message>
    <message>
        <source>Host</source>
        <translation>主机</translation>
    </message>
    <message>
        <source>Port</source>
        <translation>端口</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Machine (SSH)</source>
        <translation>机器（SSH）</translation>
    </message>
    <message>
        <source>Where this task starts over SSH: [user@]host[:port] or an ssh alias, then python=PATH or venv=DIR and folder=DIR if needed; empty: this machine</source>
        <translation>此任务通过 SSH 启动的位置：[user@]host[:port] 或 ssh 别名，需要时再加 python=路径 或 venv=目录 以及 folder=目录；留空：本机</translation>
    </message>
    <message>
        <source>  ← this process</source>
        <translation>  ← 本进程</translation>
    </message>
</context>
<context>
    <name>ComparePlots</name>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>epoch</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>wall time since start (s)</source>
        <translation>自开始以来的时间（秒）</translation>
    </message>
    <message>
        <source>wall time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>准确率</translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation>准确率</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>examples / s</source>
        <translation>样本/秒</translation>
    </message>
    <message>
        <source>step and wall time show every batch; epoch shows per-epoch means with validation (dashed)</source>
        <translation>步和时间显示每个批次；轮次显示每轮的平均值及验证（虚线）</translation>
    </message>
    <message>
        <source>Exponential moving average per step: 0 shows the raw curve, higher values smooth more</source>
        <translation>按步的指数移动平均：0 显示原始曲线，值越大越平滑</translation>
    </message>
    <message>
        <source>Only the first selected runs, in the table&apos;s order, are drawn; select fewer to see others</source>
        <translation>只绘制按表格顺序排在前面的所选运行；选择更少的运行以查看其他运行</translation>
    </message>
    <message>
        <source>&amp;x-axis:</source>
        <translation>横轴(&amp;X)：</translation>
    </message>
    <message>
        <source>s&amp;moothing:</source>
        <translation>平滑(&amp;M)：</translation>
    </message>
    <message>
        <source>GPU utilisation</source>
        <translation>GPU 利用率</translation>
    </message>
    <message>
        <source>% busy (solid), % memory (dashed)</source>
        <translation>% 繁忙（实线），% 显存（虚线）</translation>
    </message>
    <message>
        <source>Step anatomy</source>
        <translation>步骤剖析</translation>
    </message>
    <message numerus="yes">
        <source>showing {shown} of %n selected run(s)</source>
        <translation>
            <numerusform>显示所选 %n 次运行中的 {shown} 次</numerusform>
        </translation>
    </message>
    <message>
        <source>solid: training, dashed: validation</source>
        <translation>实线：训练，虚线：验证</translation>
    </message>
    <message>
        <source>faint: raw, solid: smoothed</source>
        <translation>浅色：原始值，实线：平滑值</translation>
    </message>
    <message>
        <source>Select runs in the table to compare them (Ctrl- or Shift-click for several).</source>
        <translation>在表格中选择运行进行比较（按住 Ctrl 或 Shift 点击可多选）。</translation>
    </message>
</context>
<context>
    <name>DataPreview</name>
    <message>
        <source> · … %n more</source>
        <translation> · … 另有 %n 个</translation>
    </message>
    <message>
        <source>known when the run starts</source>
        <translation>运行开始时才知道</translation>
    </message>
    <message numerus="yes">
        <source> · %n files</source>
        <translation>
            <numerusform> · %n 个文件</numerusform>
        </translation>
    </message>
    <message>
        <source>Preview: {approx}{count} examples · input {shape} · {classes} classes{files}</source>
        <translation>预览：{approx}{count} 个样本 · 输入 {shape} · {classes} 个类别{files}</translation>
    </message>
    <message>
        <source>Classes: {classes}</source>
        <translation>类别：{classes}</translation>
    </message>
</context>
<context>
    <name>DataSourceForm</name>
    <message>
        <source>choose a file…</source>
        <translation>选择文件…</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>e.g. 10 or 32, 32, 3</source>
        <translation>例如 10 或 32, 32, 3</translation>
    </message>
    <message>
        <source>as stored (all alike)</source>
        <translation>保持原尺寸（须全部一致）</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>数据源</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>路径</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>样本数</translation>
    </message>
    <message>
        <source>Features</source>
        <translation>特征数</translation>
    </message>
    <message>
        <source>Classes</source>
        <translation>类别数</translation>
    </message>
    <message>
        <source>Label column</source>
        <translation>标签列</translation>
    </message>
    <message>
        <source>Features key</source>
        <translation>特征键</translation>
    </message>
    <message>
        <source>Labels key</source>
        <translation>标签键</translation>
    </message>
    <message>
        <source>Feature type</source>
        <translation>特征类型</translation>
    </message>
    <message>
        <source>float: a list of numbers; image: an encoded PNG/JPEG</source>
        <translation>float：数值列表；image：编码后的 PNG/JPEG</translation>
    </message>
    <message>
        <source>Feature shape</source>
        <translation>特征形状</translation>
    </message>
    <message>
        <source>Image size</source>
        <translation>图像尺寸</translation>
    </message>
    <message>
        <source>height, width to resize every image to; empty keeps the stored size</source>
        <translation>把每张图像缩放到的 高, 宽；留空则保持原尺寸</translation>
    </message>
    <message>
        <source>Colour</source>
        <translation>颜色</translation>
    </message>
    <message>
        <source>auto: the images&apos; own channels; rgb or grayscale converts them all</source>
        <translation>auto：保留图像自身的通道；rgb 或 grayscale 会统一转换</translation>
    </message>
    <message>
        <source>Function</source>
        <translation>函数</translation>
    </message>
    <message>
        <source>make_dataset(input_context) -&gt; tf.data.Dataset of (features, label) examples</source>
        <translation>make_dataset(input_context) -&gt; 由 (特征, 标签) 样本组成的 tf.data.Dataset</translation>
    </message>
    <message>
        <source>Validation function</source>
        <translation>验证函数</translation>
    </message>
    <message>
        <source>Shard policy</source>
        <translation>分片策略</translation>
    </message>
    <message>
        <source>How multi-worker runs split data</source>
        <translation>多工作器运行如何切分数据</translation>
    </message>
    <message numerus="yes">
        <source> → {resolved} with %n workers</source>
        <translation>
            <numerusform> → {resolved}（%n 个工作器）</numerusform>
        </translation>
    </message>
    <message>
        <source>choose a folder…</source>
        <translation>选择文件夹…</translation>
    </message>
    <message>
        <source>choose a file (or a glob)…</source>
        <translation>选择文件（或通配符）…</translation>
    </message>
    <message>
        <source>Choose an image folder</source>
        <translation>选择图像文件夹</translation>
    </message>
    <message>
        <source>Choose a {kind} file</source>
        <translation>选择 {kind} 文件</translation>
    </message>
</context>
<context>
    <name>DeviceProbe</name>
    <message>
        <source>The device probe exited with code {code}.</source>
        <translation>设备探测进程以代码 {code} 退出。</translation>
    </message>
    <message>
        <source>The device probe could not start: {error}</source>
        <translation>设备探测进程无法启动：{error}</translation>
    </message>
    <message>
        <source>The device probe gave no answer within {seconds} s.</source>
        <translation>设备探测进程在 {seconds} 秒内没有响应。</translation>
    </message>
</context>
<context>
    <name>DevicesPanel</name>
    <message>
        <source>&lt;b&gt;No GPU found: every strategy runs on the CPU.&lt;/b&gt;&lt;ul style=&apos;margin-left:-20px&apos;&gt;&lt;li&gt;&lt;b&gt;default&lt;/b&gt;: no distribution; one replica on the CPU.&lt;/li&gt;&lt;li&gt;&lt;b&gt;one_device&lt;/b&gt;: all variables and steps placed on one device (CPU:0).&lt;/li&gt;&lt;li&gt;&lt;b&gt;mirrored&lt;/b&gt;: a copy of the model per device, gradients averaged by all-reduce. One CPU is one replica, unless you split it.&lt;/li&gt;&lt;li&gt;&lt;b&gt;multi_worker_mirrored&lt;/b&gt;: mirrored across worker processes that talk over the network; locally each worker is a process on this machine.&lt;/li&gt;&lt;li&gt;&lt;b&gt;parameter_server&lt;/b&gt;: a coordinator hands steps to worker processes, which update variables held by parameter-server processes, asynchronously; locally all are processes here.&lt;/li&gt;&lt;/ul&gt;&lt;b&gt;Virtual devices&lt;/b&gt; split the CPU into N logical devices before TensorFlow starts, so &lt;i&gt;mirrored&lt;/i&gt; runs N replicas: practise all-reduce, per-replica batches and sharding without a GPU (it is not faster: the replicas share the same cores).</source>
        <translation>&lt;b&gt;未找到 GPU：所有策略都在 CPU 上运行。&lt;/b&gt;&lt;ul style=&apos;margin-left:-20px&apos;&gt;&lt;li&gt;&lt;b&gt;default&lt;/b&gt;：不分布；在 CPU 上运行一个副本。&lt;/li&gt;&lt;li&gt;&lt;b&gt;one_device&lt;/b&gt;：所有变量和步骤都放在一个设备（CPU:0）上。&lt;/li&gt;&lt;li&gt;&lt;b&gt;mirrored&lt;/b&gt;：每个设备一份模型副本，梯度通过 all-reduce 求平均。一个 CPU 就是一个副本，除非把它拆分。&lt;/li&gt;&lt;li&gt;&lt;b&gt;multi_worker_mirrored&lt;/b&gt;：在通过网络通信的多个工作器进程间镜像；在本机时每个工作器都是本机上的一个进程。&lt;/li&gt;&lt;li&gt;&lt;b&gt;parameter_server&lt;/b&gt;：协调器把步骤分派给工作器进程，工作器异步更新参数服务器进程中保存的变量；在本机时它们都是本机进程。&lt;/li&gt;&lt;/ul&gt;&lt;b&gt;虚拟设备&lt;/b&gt;在 TensorFlow 启动前把 CPU 拆成 N 个逻辑设备，于是 &lt;i&gt;mirrored&lt;/i&gt; 会运行 N 个副本：无需 GPU 即可练习 all-reduce、每副本批次和数据分片（不会更快：各副本共用同样的核心）。</translation>
    </message>
    <message>
        <source>memory unknown</source>
        <translation>内存未知</translation>
    </message>
    <message>
        <source>compute capability {cc}</source>
        <translation>计算能力 {cc}</translation>
    </message>
    <message>
        <source>%n cores</source>
        <translation>%n 个核心</translation>
    </message>
    <message>
        <source>cores unknown</source>
        <translation>核心数未知</translation>
    </message>
    <message>
        <source>Looking for devices (TensorFlow starts in a child process)…</source>
        <translation>正在查找设备（TensorFlow 在子进程中启动）…</translation>
    </message>
    <message>
        <source>&lt;b&gt;Could not list devices.&lt;/b&gt; {message}</source>
        <translation>&lt;b&gt;无法列出设备。&lt;/b&gt;{message}</translation>
    </message>
    <message>
        <source>PCI bus {bus}</source>
        <translation>PCI 总线 {bus}</translation>
    </message>
    <message>
        <source>{text}
live figures: waiting for NVML…</source>
        <translation>{text}
实时数据：等待 NVML…</translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s)</source>
        <translation>
            <numerusform>%n 个 GPU</numerusform>
        </translation>
    </message>
    <message>
        <source>{version} sees {found} and {cpus} CPU.</source>
        <translation>{version} 检测到 {found} 和 {cpus} 个 CPU。</translation>
    </message>
    <message>
        <source>{text}
no live figures</source>
        <translation>{text}
无实时数据</translation>
    </message>
    <message>
        <source>NVML is not available</source>
        <translation>NVML 不可用</translation>
    </message>
    <message>
        <source>No live GPU figures: {why}.</source>
        <translation>没有 GPU 实时数据：{why}。</translation>
    </message>
    <message>
        <source>stopped answering ({error})</source>
        <translation>已停止响应（{error}）</translation>
    </message>
    <message>
        <source>busy {percent}%</source>
        <translation>繁忙 {percent}%</translation>
    </message>
    <message>
        <source>busy: n/a (MIG instance)</source>
        <translation>繁忙：不可用（MIG 实例）</translation>
    </message>
    <message>
        <source> · memory used {used:.1f} / {total:.1f} GiB</source>
        <translation> · 已用显存 {used:.1f} / {total:.1f} GiB</translation>
    </message>
</context>
<context>
    <name>FirstStepLabel</name>
    <message>
        <source>Time from Start to the run&apos;s first training step</source>
        <translation>从开始到运行第一个训练步的时间</translation>
    </message>
    <message>
        <source>first step: waiting…</source>
        <translation>第一步：等待中…</translation>
    </message>
    <message>
        <source>first step after {seconds:.1f} s (warm trainer)</source>
        <translation>第一步用时 {seconds:.1f} 秒（预热的训练器）</translation>
    </message>
    <message>
        <source>first step after {seconds:.1f} s (cold trainer)</source>
        <translation>第一步用时 {seconds:.1f} 秒（冷启动的训练器）</translation>
    </message>
</context>
<context>
    <name>GpuPlot</name>
    <message>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <source>% busy (solid), % memory (dashed)</source>
        <translation>% 繁忙（实线），% 显存（虚线）</translation>
    </message>
    <message>
        <source>{gpu} busy</source>
        <translation>{gpu} 繁忙</translation>
    </message>
    <message>
        <source>memory</source>
        <translation>显存</translation>
    </message>
</context>
<context>
    <name>ImportanceBars</name>
    <message>
        <source>Parameter importance ({method}, Optuna)</source>
        <translation>参数重要性（{method}，Optuna）</translation>
    </message>
    <message>
        <source>Parameter importance: not yet</source>
        <translation>参数重要性：暂无</translation>
    </message>
</context>
<context>
    <name>LivePlot</name>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>time since Start (s)</source>
        <translation>自开始以来的时间（秒）</translation>
    </message>
    <message>
        <source>Plot of {what} over training steps or time</source>
        <translation>{what} 随训练步数或时间变化的曲线</translation>
    </message>
    <message>
        <source>per batch</source>
        <translation>每批次</translation>
    </message>
    <message>
        <source>smoothed (EMA)</source>
        <translation>平滑（EMA）</translation>
    </message>
    <message>
        <source>epoch</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>validation</source>
        <translation>验证</translation>
    </message>
</context>
<context>
    <name>LiveWatch</name>
    <message>
        <source>watching the run in {folder} as it writes it</source>
        <translation>正在观看 {folder} 中的运行，随其写入而更新</translation>
    </message>
    <message>
        <source>reading the run&apos;s folder…</source>
        <translation>正在读取运行文件夹…</translation>
    </message>
    <message>
        <source>stopped watching {folder}; the run goes on</source>
        <translation>已停止观看 {folder}；该运行继续进行</translation>
    </message>
    <message>
        <source>the run does not train on this machine (any more); nothing was stopped</source>
        <translation>该运行（已）不在本机训练；没有停止任何进程</translation>
    </message>
    <message>
        <source>asked pid {pid} to save a checkpoint and stop</source>
        <translation>已请求 pid {pid} 保存检查点后停止</translation>
    </message>
    <message>
        <source>stopping</source>
        <translation>停止中</translation>
    </message>
    <message>
        <source>following it as it grows</source>
        <translation>随运行增长实时跟随</translation>
    </message>
    <message>
        <source>the run&apos;s events.jsonl was rewritten (a resume): reading it again from its start</source>
        <translation>该运行的 events.jsonl 被重写（继续运行）：从头重新读取</translation>
    </message>
    <message>
        <source>Ask pid {pid} to save a checkpoint and stop (Esc)</source>
        <translation>请求 pid {pid} 保存检查点后停止（Esc）</translation>
    </message>
    <message>
        <source>It trains on {host} (pid {pid}): stop it there</source>
        <translation>它在 {host} 上训练（pid {pid}）：请在那台机器上停止</translation>
    </message>
    <message>
        <source>No process of this machine holds the run&apos;s lock: stop it where it trains</source>
        <translation>本机没有进程持有该运行的锁：请在它训练的机器上停止</translation>
    </message>
    <message>
        <source>run {status}</source>
        <translation>运行{status}</translation>
    </message>
    <message>
        <source>run failed</source>
        <translation>运行失败</translation>
    </message>
</context>
<context>
    <name>LogModel</name>
    <message numerus="yes">
        <source>   [%n raw line(s)]</source>
        <translation>
            <numerusform>   [%n 行原始输出]</numerusform>
        </translation>
    </message>
    <message>
        <source>Expand to see the lines as TensorFlow printed them</source>
        <translation>展开可查看 TensorFlow 打印的原始行</translation>
    </message>
</context>
<context>
    <name>LogView</name>
    <message>
        <source>Trainer log</source>
        <translation>训练器日志</translation>
    </message>
    <message>
        <source>Filter log lines (e.g. error, epoch, warning)</source>
        <translation>筛选日志行（例如 error、轮次、warning）</translation>
    </message>
    <message>
        <source>Raw log</source>
        <translation>原始日志</translation>
    </message>
    <message>
        <source>Open the run&apos;s stderr exactly as the trainer wrote it</source>
        <translation>打开训练器原样写出的运行 stderr</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the shown lines (or the selection) to the clipboard</source>
        <translation>把显示的行（或选中部分）复制到剪贴板</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清空</translation>
    </message>
    <message>
        <source>Log</source>
        <translation>日志</translation>
    </message>
    <message numerus="yes">
        <source>{shown} of %n line(s)</source>
        <translation>
            <numerusform>显示 {shown} 行，共 %n 行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n line(s)</source>
        <translation>
            <numerusform>%n 行</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>Devices</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Live</source>
        <translation>实时</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>运行记录</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open config…</source>
        <translation>打开配置(&amp;O)…</translation>
    </message>
    <message>
        <source>&amp;Save config as…</source>
        <translation>配置另存为(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>开始(&amp;S)</translation>
    </message>
    <message>
        <source>S&amp;top…</source>
        <translation>停止(&amp;T)…</translation>
    </message>
    <message>
        <source>&amp;Scaling study…</source>
        <translation>扩展性研究(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Export form as script…</source>
        <translation>把表单导出为脚本(&amp;E)…</translation>
    </message>
    <message>
        <source>Export &amp;cluster for other machines…</source>
        <translation>导出集群供其他机器使用(&amp;C)…</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About</source>
        <translation>关于(&amp;A)</translation>
    </message>
    <message>
        <source>About</source>
        <translation>关于</translation>
    </message>
    <message>
        <source>TF Distributed Dashboard: configure, run and compare tf.distribute training.

Keys: Ctrl+Return starts a run, Esc stops it (after asking), Ctrl+1 … Ctrl+{tabs} show the tabs, Alt with an underlined letter moves to that field.</source>
        <translation>TF 分布式训练仪表板：配置、运行和比较 tf.distribute 训练。

快捷键：Ctrl+Return 开始运行，Esc 停止运行（会先确认），Ctrl+1 … Ctrl+{tabs} 切换标签页，Alt 加带下划线的字母跳到对应字段。</translation>
    </message>
    <message>
        <source>the stored run config cannot be shown ({error})</source>
        <translation>保存的运行配置无法显示（{error}）</translation>
    </message>
    <message>
        <source>The last session&apos;s settings were not restored ({why}); the form starts from the defaults.</source>
        <translation>未能恢复上次会话的设置（{why}）；表单从默认值开始。</translation>
    </message>
    <message numerus="yes">
        <source>Fix %n problem(s) first ({fields}).</source>
        <translation>
            <numerusform>请先修正 %n 个问题（{fields}）。</numerusform>
        </translation>
    </message>
    <message>
        <source>strategy: {strategy}</source>
        <translation>策略：{strategy}</translation>
    </message>
    <message>
        <source>replicas: {replicas}</source>
        <translation>副本数：{replicas}</translation>
    </message>
    <message>
        <source>per-replica batch: {per}</source>
        <translation>每副本批次：{per}</translation>
    </message>
    <message>
        <source>state: {state}</source>
        <translation>状态：{state}</translation>
    </message>
    <message>
        <source>idle</source>
        <translation>空闲</translation>
    </message>
    <message>
        <source>Show the trainer&apos;s &amp;Python stacks…</source>
        <translation>显示训练器的 Python 调用栈(&amp;P)…</translation>
    </message>
    <message>
        <source>S&amp;weep…</source>
        <translation>超参数扫描(&amp;W)…</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>启动中</translation>
    </message>
    <message>
        <source>stopping</source>
        <translation>停止中</translation>
    </message>
    <message>
        <source>Cannot open config</source>
        <translation>无法打开配置</translation>
    </message>
    <message numerus="yes">
        <source>{path} has %n problem(s):</source>
        <translation>
            <numerusform>{path} 有 %n 个问题：</numerusform>
        </translation>
    </message>
    <message>
        <source>Opened {path}</source>
        <translation>已打开 {path}</translation>
    </message>
    <message numerus="yes">
        <source> (it still has %n problem(s))</source>
        <translation>
            <numerusform>（仍有 %n 个问题）</numerusform>
        </translation>
    </message>
    <message>
        <source>Saved {path}{note}</source>
        <translation>已保存 {path}{note}</translation>
    </message>
    <message>
        <source>Open run config</source>
        <translation>打开运行配置</translation>
    </message>
    <message>
        <source>Run configs (*.json);;All files (*)</source>
        <translation>运行配置 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Save run config</source>
        <translation>保存运行配置</translation>
    </message>
    <message>
        <source>Run configs (*.json)</source>
        <translation>运行配置 (*.json)</translation>
    </message>
    <message>
        <source>Cannot start the cluster</source>
        <translation>无法启动集群</translation>
    </message>
    <message>
        <source>Fix the run form first ({fields}).</source>
        <translation>请先修正运行表单（{fields}）。</translation>
    </message>
    <message>
        <source>The tasks run on other machines, where their profiles would stay: a profile is offered for a cluster on this machine</source>
        <translation>这些任务运行在其他机器上，性能剖析会留在那些机器上：只有本机上的集群可以采集性能剖析</translation>
    </message>
    <message>
        <source>Cannot start the run</source>
        <translation>无法开始运行</translation>
    </message>
    <message>
        <source> (warm trainer, pid {pid})</source>
        <translation>（预热的训练器，pid {pid}）</translation>
    </message>
    <message>
        <source> (a fresh trainer: {why})</source>
        <translation>（新启动的训练器：{why}）</translation>
    </message>
    <message>
        <source>{what} in {folder}{how}</source>
        <translation>{what}，目录 {folder}{how}</translation>
    </message>
    <message>
        <source>As it stopped, the run ended %1: %2.</source>
        <translation>停止时，该运行以“%1”结束：%2。</translation>
    </message>
    <message>
        <source>Run started</source>
        <translation>运行已开始</translation>
    </message>
    <message>
        <source>Stop the run?</source>
        <translation>停止运行？</translation>
    </message>
    <message>
        <source>The trainer saves a checkpoint and stops. Stop now?</source>
        <translation>训练器会保存检查点后停止。现在停止吗？</translation>
    </message>
    <message>
        <source>No step progress: Run › Show the trainer&apos;s Python stacks tells where it waits</source>
        <translation>训练步骤没有进展：“运行 › 显示训练器的 Python 调用栈”可查看它在哪里等待</translation>
    </message>
    <message>
        <source>run {status}</source>
        <translation>运行{status}</translation>
    </message>
    <message>
        <source>Run {status}. Results in {folder}</source>
        <translation>运行{status}。结果位于 {folder}</translation>
    </message>
    <message>
        <source>the run directory</source>
        <translation>运行目录</translation>
    </message>
    <message>
        <source>Run {status}</source>
        <translation>运行{status}</translation>
    </message>
    <message>
        <source>run failed</source>
        <translation>运行失败</translation>
    </message>
    <message>
        <source>Run failed: {message}</source>
        <translation>运行失败：{message}</translation>
    </message>
    <message>
        <source>The run failed</source>
        <translation>运行失败</translation>
    </message>
    <message>
        <source>Loaded the run&apos;s config into the form</source>
        <translation>已把该运行的配置载入表单</translation>
    </message>
    <message>
        <source>No script for this strategy</source>
        <translation>此策略没有对应脚本</translation>
    </message>
    <message>
        <source>Export as script</source>
        <translation>导出为脚本</translation>
    </message>
    <message>
        <source>Python scripts (*.py)</source>
        <translation>Python 脚本 (*.py)</translation>
    </message>
</context>
<context>
    <name>ModelForm</name>
    <message>
        <source>synchronized batch norm</source>
        <translation>同步批归一化</translation>
    </message>
    <message>
        <source>none: random initial weights</source>
        <translation>无：随机初始权重</translation>
    </message>
    <message>
        <source>choose a file…</source>
        <translation>选择文件…</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Conv filters</source>
        <translation>卷积滤波器</translation>
    </message>
    <message>
        <source>Filters of each conv block</source>
        <translation>每个卷积块的滤波器数</translation>
    </message>
    <message>
        <source>Kernel size</source>
        <translation>卷积核大小</translation>
    </message>
    <message>
        <source>Normalisation</source>
        <translation>归一化</translation>
    </message>
    <message>
        <source>Hidden layers</source>
        <translation>隐藏层</translation>
    </message>
    <message>
        <source>Units of each Dense layer, comma-separated</source>
        <translation>每个 Dense 层的单元数，用逗号分隔</translation>
    </message>
    <message>
        <source>Activation</source>
        <translation>激活函数</translation>
    </message>
    <message>
        <source>Architecture</source>
        <translation>架构</translation>
    </message>
    <message>
        <source>Weights file</source>
        <translation>权重文件</translation>
    </message>
    <message>
        <source>Model file</source>
        <translation>模型文件</translation>
    </message>
    <message>
        <source>Function</source>
        <translation>函数</translation>
    </message>
    <message>
        <source>Keyword arguments</source>
        <translation>关键字参数</translation>
    </message>
    <message>
        <source>Passed to the function as keyword arguments, a JSON object; a sweep can vary each of them</source>
        <translation>以关键字参数传给函数，写成 JSON 对象；超参数搜索可以改变其中每一项</translation>
    </message>
    <message>
        <source>Choose the model file</source>
        <translation>选择模型文件</translation>
    </message>
    <message>
        <source>Choose a weights file</source>
        <translation>选择权重文件</translation>
    </message>
    <message>
        <source>Weights (*.h5 *.weights.h5);;All files (*)</source>
        <translation>权重 (*.h5 *.weights.h5);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>ModelSummary</name>
    <message>
        <source>Summarize model</source>
        <translation>模型概要</translation>
    </message>
    <message>
        <source>Build the model in a separate process: layers, parameters, memory per replica</source>
        <translation>在单独的进程中构建模型：层、参数、每个副本的内存</translation>
    </message>
    <message>
        <source>layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Building the model in a separate process…</source>
        <translation>正在单独的进程中构建模型…</translation>
    </message>
    <message>
        <source>could not start the summary process ({error})</source>
        <translation>无法启动概要进程（{error}）</translation>
    </message>
    <message>
        <source>the summary process ended with code {code}: {error}</source>
        <translation>概要进程以代码 {code} 结束：{error}</translation>
    </message>
    <message>
        <source>no output</source>
        <translation>无输出</translation>
    </message>
    <message>
        <source>Cannot build the model: {message}</source>
        <translation>无法构建模型：{message}</translation>
    </message>
    <message>
        <source>probabilities (softmax/sigmoid detected)</source>
        <translation>概率（检测到 softmax/sigmoid）</translation>
    </message>
    <message>
        <source>{model}: {total_params:,} parameters ({trainable_params:,} trainable) · input {input_shape} → {output_units} {output} · ≈ {total} per replica at {per_replica_batch} examples (weights {weights}, activations {activations})</source>
        <translation>{model}：{total_params:,} 个参数（{trainable_params:,} 个可训练）· 输入 {input_shape} → {output_units} 个{output} · 每个副本 {per_replica_batch} 个样本时约 {total}（权重 {weights}，激活 {activations}）</translation>
    </message>
    <message>
        <source>Out of date: Summarize again. </source>
        <translation>已过期：请重新生成概要。</translation>
    </message>
</context>
<context>
    <name>ParallelCoordinates</name>
    <message>
        <source>{objective} (better at the top)</source>
        <translation>{objective}（越靠上越好）</translation>
    </message>
    <message>
        <source>trial {number}: {objective} {value:.4g}</source>
        <translation>试验 {number}：{objective} {value:.4g}</translation>
    </message>
</context>
<context>
    <name>Preferences</name>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>System default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>TFDD_LANG is set in the environment and decides the language.</source>
        <translation>环境变量 TFDD_LANG 已设置，界面语言由它决定。</translation>
    </message>
    <message>
        <source>The new language applies when the dashboard starts again. Restart now?</source>
        <translation>新语言将在仪表板重新启动后生效。现在重启吗？</translation>
    </message>
    <message>
        <source>The new language applies the next time the dashboard starts.</source>
        <translation>新语言将在下次启动仪表板时生效。</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;System colours</source>
        <translation>跟随系统配色(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Light</source>
        <translation>浅色(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark</source>
        <translation>深色(&amp;D)</translation>
    </message>
    <message>
        <source>Live &amp;plots</source>
        <translation>实时曲线(&amp;P)</translation>
    </message>
    <message>
        <source>How often the Live tab redraws while a run streams. On a small machine that trains on every core, fewer frames leave more of the CPU to training.</source>
        <translation>运行推送数据时“实时”页重绘的频率。在每个核心都在训练的小机器上，帧数越少，留给训练的 CPU 越多。</translation>
    </message>
    <message>
        <source>Redraw every {seconds} s</source>
        <translation>每 {seconds} 秒重绘</translation>
    </message>
</context>
<context>
    <name>RemediesPanel</name>
    <message>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <source>Put this change into the run form</source>
        <translation>把这项更改填入运行表单</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Try</source>
        <translation>试用</translation>
    </message>
    <message>
        <source>Stop the trial</source>
        <translation>停止试验</translation>
    </message>
    <message>
        <source>Trials start when the run has ended: beside a training they would measure both slower</source>
        <translation>运行结束后才能开始试验：与训练同时进行会使两者都测得更慢</translation>
    </message>
    <message>
        <source>Run the run&apos;s config and the changed one in turn, {runs} short runs, and measure the speed-up</source>
        <translation>轮流运行本次运行的配置和更改后的配置，共 {runs} 次短运行，并测量加速</translation>
    </message>
    <message>
        <source>cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>starting…</source>
        <translation>正在启动…</translation>
    </message>
    <message>
        <source>run {n} of {total}…</source>
        <translation>第 {n} 次运行，共 {total} 次…</translation>
    </message>
    <message>
        <source>{factor:.2f}× ({low:.2f}–{high:.2f})</source>
        <translation>{factor:.2f}×（{low:.2f}–{high:.2f}）</translation>
    </message>
    <message>
        <source>no speed-up measured</source>
        <translation>未测得加速</translation>
    </message>
</context>
<context>
    <name>RunControls</name>
    <message>
        <source>Start</source>
        <translation>开始</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the run: the trainer saves a checkpoint first (Esc)</source>
        <translation>停止运行：训练器会先保存检查点 (Esc)</translation>
    </message>
    <message>
        <source>no run yet</source>
        <translation>尚无运行</translation>
    </message>
    <message>
        <source> steps</source>
        <translation> 步</translation>
    </message>
    <message>
        <source>Steps to profile</source>
        <translation>要剖析的步数</translation>
    </message>
    <message>
        <source>Capture profile</source>
        <translation>采集性能剖析</translation>
    </message>
    <message>
        <source>Writes a TensorFlow profile of the run&apos;s next steps</source>
        <translation>为运行接下来的若干步写出 TensorFlow 性能剖析</translation>
    </message>
    <message>
        <source>Run progress</source>
        <translation>运行进度</translation>
    </message>
    <message>
        <source>Starts a run of the run form&apos;s config</source>
        <translation>按运行表单的配置开始一次运行</translation>
    </message>
    <message>
        <source>Asks the trainer to save a checkpoint and stop</source>
        <translation>请求训练器保存检查点并停止</translation>
    </message>
    <message>
        <source>Start a run (Ctrl+Return)</source>
        <translation>开始运行 (Ctrl+Return)</translation>
    </message>
    <message>
        <source>starting the trainer…</source>
        <translation>正在启动训练器…</translation>
    </message>
    <message>
        <source>Only a run this window started can be asked for a profile</source>
        <translation>只有本窗口启动的运行才能请求性能剖析</translation>
    </message>
    <message>
        <source>Write a TensorFlow profile of the next N steps into the run&apos;s tensorboard/ folder; view it with TensorBoard&apos;s profile plugin (pip install tensorboard-plugin-profile)</source>
        <translation>将接下来 N 步的 TensorFlow 性能剖析写入运行的 tensorboard/ 文件夹；用 TensorBoard 的性能剖析插件查看（先用 pip 安装 tensorboard-plugin-profile）</translation>
    </message>
    <message>
        <source>A parameter_server coordinator runs no steps of its own to profile</source>
        <translation>parameter_server 协调器自身不运行训练步，无可剖析</translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation>正在停止…</translation>
    </message>
</context>
<context>
    <name>RunFollower</name>
    <message>
        <source>a line of events.jsonl that is not an event was left out: {line}</source>
        <translation>events.jsonl 中有一行不是事件，已略过：{line}</translation>
    </message>
</context>
<context>
    <name>RunForm</name>
    <message>
        <source>No distribution: one replica on the first GPU, else the CPU.</source>
        <translation>不分布：在第一个 GPU 上运行一个副本，没有 GPU 则用 CPU。</translation>
    </message>
    <message>
        <source>Everything on the one device you tick.</source>
        <translation>所有内容都放在你勾选的那一个设备上。</translation>
    </message>
    <message>
        <source>One replica per ticked device (times virtual devices); gradients averaged by all-reduce.</source>
        <translation>每个勾选的设备一个副本（乘以虚拟设备数）；梯度通过 all-reduce 求平均。</translation>
    </message>
    <message>
        <source>Mirrored across worker processes: Start runs the local workers on 127.0.0.1, one replica per ticked device each (the CPU is one device). The Cluster tab exports a cluster for other machines.</source>
        <translation>在多个工作器进程间镜像：“开始”会在 127.0.0.1 上运行本地工作器，每个工作器在每个勾选的设备上一个副本（CPU 算一个设备）。集群标签页可导出供其他机器使用的集群。</translation>
    </message>
    <message>
        <source>Asynchronous: a coordinator hands steps to the workers, parameter servers hold the variables, and a lost worker does not stop the run. Start runs them all on 127.0.0.1.</source>
        <translation>异步：协调器把步骤分派给工作器，参数服务器保存变量，丢失一个工作器不会中止运行。“开始”会在 127.0.0.1 上运行它们全部。</translation>
    </message>
    <message>
        <source>Split a variable only when it is at least 256 KiB, into at most one shard per parameter server (TensorFlow&apos;s tutorial; a small model&apos;s variables stay whole)</source>
        <translation>只拆分至少 256 KiB 的变量，每个参数服务器最多一个分片（TensorFlow 教程的做法；小模型的变量保持完整）</translation>
    </message>
    <message>
        <source>Split every variable into one shard per parameter server (shows sharding even on a small model)</source>
        <translation>把每个变量拆成每个参数服务器一个分片（即使小模型也能看到分片）</translation>
    </message>
    <message>
        <source>Keep every variable whole; variables are placed on the parameter servers in turn</source>
        <translation>每个变量保持完整；变量依次放在各参数服务器上</translation>
    </message>
    <message>
        <source>The engine&apos;s choice: NCCL between GPUs on Linux, hierarchical copy between other GPUs, reduction to one device on the CPU, a ring between CPU workers</source>
        <translation>由引擎选择：Linux 上 GPU 之间用 NCCL，其他 GPU 之间用分层复制，CPU 上归约到一个设备，CPU worker 之间用环</translation>
    </message>
    <message>
        <source>NVIDIA&apos;s collective library: the fast path between GPUs; Linux only</source>
        <translation>NVIDIA 的集合通信库：GPU 之间的快速通道；仅限 Linux</translation>
    </message>
    <message>
        <source>multi_worker_mirrored: the gradients pass around a ring of the workers</source>
        <translation>multi_worker_mirrored：梯度沿 worker 组成的环传递</translation>
    </message>
    <message>
        <source>mirrored: GPUs sum in groups, then across the groups (made for eight GPUs)</source>
        <translation>mirrored：GPU 先分组求和，再跨组求和（为八块 GPU 设计）</translation>
    </message>
    <message>
        <source>mirrored: every replica&apos;s gradients summed on one device and copied back</source>
        <translation>mirrored：所有副本的梯度在一个设备上求和后再复制回去</translation>
    </message>
    <message>
        <source>float32 throughout</source>
        <translation>全程 float32</translation>
    </message>
    <message>
        <source>float16 maths, float32 variables; fast on GPUs of compute capability 7.0 or more; the loss is scaled</source>
        <translation>float16 计算、float32 变量；在计算能力 7.0 及以上的 GPU 上快；损失会被缩放</translation>
    </message>
    <message>
        <source>bfloat16 maths, float32 variables; fast on GPUs of compute capability 8.0 or more and CPUs with AMX or AVX512-BF16</source>
        <translation>bfloat16 计算、float32 变量；在计算能力 8.0 及以上的 GPU 和支持 AMX 或 AVX512-BF16 的 CPU 上快</translation>
    </message>
    <message>
        <source>Split each device into N logical devices (N replicas with mirrored)</source>
        <translation>把每个设备拆成 N 个逻辑设备（mirrored 下即 N 个副本）</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>Training</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>&amp;Epochs</source>
        <translation>轮次(&amp;E)</translation>
    </message>
    <message>
        <source>Global &amp;batch</source>
        <translation>全局批处理大小(&amp;B)</translation>
    </message>
    <message>
        <source>Examples per step over all replicas; each replica gets global ÷ replicas</source>
        <translation>所有副本每步的样本总数；每个副本分到 全局 ÷ 副本数</translation>
    </message>
    <message>
        <source>&amp;Loop</source>
        <translation>循环(&amp;L)</translation>
    </message>
    <message>
        <source>fit: Keras model.fit; custom: strategy.run + strategy.reduce</source>
        <translation>fit：Keras model.fit；custom：自定义训练循环（strategy.run + strategy.reduce）</translation>
    </message>
    <message>
        <source>&amp;Optimizer</source>
        <translation>优化器(&amp;O)</translation>
    </message>
    <message>
        <source>Learning &amp;rate</source>
        <translation>学习率(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Validation split</source>
        <translation>验证集比例(&amp;V)</translation>
    </message>
    <message>
        <source>Share of the data kept for validation; 0 plots no validation curve</source>
        <translation>留作验证的数据比例；0 表示不绘制验证曲线</translation>
    </message>
    <message>
        <source>Distribution</source>
        <translation>分布式</translation>
    </message>
    <message>
        <source>waiting for the device list…</source>
        <translation>正在等待设备列表…</translation>
    </message>
    <message>
        <source>validate each checkpoint in an evaluator task</source>
        <translation>在评估器任务中验证每个检查点</translation>
    </message>
    <message>
        <source>An extra task validates every checkpoint the chief writes on the validation split, so training never waits for validation; its results are plotted as the validation curve</source>
        <translation>一个额外的任务在验证集上验证主工作器写出的每个检查点，训练因此无需等待验证；其结果绘制为验证曲线</translation>
    </message>
    <message>
        <source>every epoch</source>
        <translation>每个轮次</translation>
    </message>
    <message>
        <source>never by steps</source>
        <translation>从不按步数</translation>
    </message>
    <message>
        <source>Checkpoint every N steps</source>
        <translation>每 N 步保存检查点</translation>
    </message>
    <message>
        <source>every </source>
        <translation>每 </translation>
    </message>
    <message>
        <source> steps</source>
        <translation> 步</translation>
    </message>
    <message>
        <source>&amp;Strategy</source>
        <translation>策略(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Devices</source>
        <translation>设备(&amp;D)</translation>
    </message>
    <message>
        <source>V&amp;irtual devices</source>
        <translation>虚拟设备(&amp;I)</translation>
    </message>
    <message>
        <source>Local &amp;workers</source>
        <translation>本地工作器(&amp;W)</translation>
    </message>
    <message>
        <source>Worker processes Start launches on this machine (127.0.0.1); multi_worker_mirrored: worker 0 is the chief; parameter_server: a coordinator (the chief) is added</source>
        <translation>“开始”在本机（127.0.0.1）启动的工作器进程；multi_worker_mirrored：工作器 0 是主工作器；parameter_server：会另加一个协调器（chief）</translation>
    </message>
    <message>
        <source>&amp;Parameter servers</source>
        <translation>参数服务器(&amp;P)</translation>
    </message>
    <message>
        <source>ps tasks Start launches: they hold the variables</source>
        <translation>“开始”启动的 ps 任务：它们保存变量</translation>
    </message>
    <message>
        <source>Variable s&amp;harding</source>
        <translation>变量分片(&amp;H)</translation>
    </message>
    <message>
        <source>How variables are split across the parameter servers</source>
        <translation>变量如何在参数服务器间拆分</translation>
    </message>
    <message>
        <source>Evaluator</source>
        <translation>评估器</translation>
    </message>
    <message>
        <source>&amp;Checkpoints</source>
        <translation>检查点(&amp;C)</translation>
    </message>
    <message>
        <source>A stop always leaves a checkpoint</source>
        <translation>停止时总会留下检查点</translation>
    </message>
    <message>
        <source>Speed</source>
        <translation>速度</translation>
    </message>
    <message>
        <source>compile each step with XLA</source>
        <translation>用 XLA 编译每个训练步</translation>
    </message>
    <message>
        <source>TensorFlow&apos;s default</source>
        <translation>TensorFlow 默认</translation>
    </message>
    <message>
        <source> bytes</source>
        <translation> 字节</translation>
    </message>
    <message>
        <source>&amp;Mixed precision</source>
        <translation>混合精度(&amp;M)</translation>
    </message>
    <message>
        <source>16-bit maths with float32 variables: faster where the hardware computes it</source>
        <translation>16 位计算、float32 变量：在硬件支持的地方更快</translation>
    </message>
    <message>
        <source>&amp;XLA</source>
        <translation>XLA(&amp;X)</translation>
    </message>
    <message>
        <source>jit_compile: XLA fuses each replica&apos;s step into fewer kernels, often faster on GPUs; the first steps wait for the compiler</source>
        <translation>jit_compile：XLA 把每个副本的训练步融合成更少的内核，在 GPU 上常常更快；最初几步要等待编译</translation>
    </message>
    <message>
        <source>All-red&amp;uce</source>
        <translation>全归约(&amp;U)</translation>
    </message>
    <message>
        <source>How the replicas sum their gradients</source>
        <translation>各副本如何对梯度求和</translation>
    </message>
    <message>
        <source>Pac&amp;k size</source>
        <translation>分包大小(&amp;K)</translation>
    </message>
    <message>
        <source>multi_worker_mirrored: gradients are all-reduced in packs of this many bytes (fewer, larger messages); 0 leaves it to TensorFlow</source>
        <translation>multi_worker_mirrored：梯度按这么多字节分包做 all-reduce（消息更少、更大）；0 交给 TensorFlow 决定</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>the probe found no devices</source>
        <translation>探测没有找到设备</translation>
    </message>
    <message>
        <source>per replica: known once devices are listed</source>
        <translation>每副本：列出设备后才知道</translation>
    </message>
    <message numerus="yes">
        <source>not divisible by %n replica(s)</source>
        <translation>
            <numerusform>不能被 %n 个副本整除</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>= {per_replica} per replica × %n replica(s) per step; </source>
        <translation>
            <numerusform>= 每副本 {per_replica} × %n 个副本每步；</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n worker(s) take steps in turn</source>
        <translation>
            <numerusform>%n 个工作器轮流执行步骤</numerusform>
        </translation>
    </message>
    <message>
        <source> ({count}&#xa0;per&#xa0;worker)</source>
        <translation>（每个工作器&#xa0;{count}&#xa0;个）</translation>
    </message>
    <message numerus="yes">
        <source>= {per_replica} per replica × %n replica(s)</source>
        <translation>
            <numerusform>= 每副本 {per_replica} × %n 个副本</numerusform>
        </translation>
    </message>
    <message>
        <source>{strategy} runs one replica per device in each worker; add local workers instead</source>
        <translation>{strategy} 在每个工作器中每个设备运行一个副本；请改为增加本地工作器</translation>
    </message>
</context>
<context>
    <name>RunProgress</name>
    <message>
        <source>starting…</source>
        <translation>启动中…</translation>
    </message>
    <message>
        <source> · ETA {eta}</source>
        <translation> · 预计剩余 {eta}</translation>
    </message>
    <message>
        <source>epoch {epoch}/{epochs} · step {step}/{steps} · {percent:.0f}%</source>
        <translation>轮次 {epoch}/{epochs} · 步 {step}/{steps} · {percent:.0f}%</translation>
    </message>
</context>
<context>
    <name>RunsPanel</name>
    <message>
        <source>&amp;Refresh runs</source>
        <translation>刷新运行列表(&amp;R)</translation>
    </message>
    <message>
        <source>Read the runs folder again (F5)</source>
        <translation>重新读取运行文件夹 (F5)</translation>
    </message>
    <message>
        <source>Open in form</source>
        <translation>在表单中打开</translation>
    </message>
    <message>
        <source>Load the selected run&apos;s config into the run form, to run it again with changes (double-click does the same; on a run that is training it watches it live)</source>
        <translation>把所选运行的配置载入运行表单，修改后再次运行（双击效果相同；双击正在训练的运行则实时观看它）</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Watch live</source>
        <translation>实时观看</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Metrics as CSV…</source>
        <translation>指标导出为 CSV…</translation>
    </message>
    <message>
        <source>Config as JSON…</source>
        <translation>配置导出为 JSON…</translation>
    </message>
    <message>
        <source>As a Python script…</source>
        <translation>导出为 Python 脚本…</translation>
    </message>
    <message>
        <source>Scaling study…</source>
        <translation>扩展性研究…</translation>
    </message>
    <message>
        <source>Run the run form&apos;s config with 1, 2, 4 … replicas and compare throughput</source>
        <translation>用 1、2、4 … 个副本运行表单中的配置并比较吞吐量</translation>
    </message>
    <message>
        <source>reading the runs in {root}…</source>
        <translation>正在读取 {root} 中的运行…</translation>
    </message>
    <message numerus="yes">
        <source>%n run(s) in {root}</source>
        <translation>
            <numerusform>{root} 中有 %n 次运行</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> (and %n more)</source>
        <translation>
            <numerusform>（另有 %n 个）</numerusform>
        </translation>
    </message>
    <message>
        <source>Continue this run from its last checkpoint</source>
        <translation>从最近的检查点继续这次运行</translation>
    </message>
    <message>
        <source>A run is in progress; resume when it has ended</source>
        <translation>有运行正在进行；请在其结束后恢复</translation>
    </message>
    <message>
        <source>{name} is being trained by {holder}; it can be resumed once that has stopped</source>
        <translation>{name} 正由 {holder} 训练；待其停止后才能恢复</translation>
    </message>
    <message>
        <source>Select one stopped or interrupted run that left a checkpoint</source>
        <translation>请选择一个已停止或被中断且留有检查点的运行</translation>
    </message>
    <message>
        <source>This window&apos;s run: the Live tab shows it</source>
        <translation>这是本窗口的运行：“实时”页正在显示它</translation>
    </message>
    <message>
        <source>Follow {name} in the Live tab as it trains ({holder})</source>
        <translation>在“实时”页跟随 {name} 的训练（{holder}）</translation>
    </message>
    <message>
        <source>Follow this run in the Live tab: it recorded no end and no process this machine can see holds its lock, so it trains on a machine whose lock is not visible here, or it was cut short</source>
        <translation>在“实时”页跟随此运行：它没有记录结束，本机也看不到持有其锁的进程，所以它要么在一台本机看不到其锁的机器上训练，要么已被中断</translation>
    </message>
    <message>
        <source>Select one run that is training to follow it in the Live tab</source>
        <translation>选择一个正在训练的运行，在“实时”页跟随它</translation>
    </message>
    <message>
        <source>Cannot open the config of {name}: {error}</source>
        <translation>无法打开 {name} 的配置：{error}</translation>
    </message>
    <message>
        <source>Export metrics</source>
        <translation>导出指标</translation>
    </message>
    <message>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <source>Export run config</source>
        <translation>导出运行配置</translation>
    </message>
    <message>
        <source>Run configs (*.json)</source>
        <translation>运行配置 (*.json)</translation>
    </message>
    <message>
        <source>Export as script</source>
        <translation>导出为脚本</translation>
    </message>
    <message>
        <source>Python scripts (*.py)</source>
        <translation>Python 脚本 (*.py)</translation>
    </message>
</context>
<context>
    <name>RunsTableModel</name>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>Strategy</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>Replicas</source>
        <translation>副本数</translation>
    </message>
    <message>
        <source>Loop</source>
        <translation>循环</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>准确率</translation>
    </message>
    <message>
        <source>Val loss</source>
        <translation>验证损失</translation>
    </message>
    <message>
        <source>Val accuracy</source>
        <translation>验证准确率</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Step time</source>
        <translation>每步用时</translation>
    </message>
    <message>
        <source>Bound by</source>
        <translation>瓶颈</translation>
    </message>
    <message>
        <source>in this window</source>
        <translation>在本窗口中</translation>
    </message>
    <message>
        <source>by {holder}</source>
        <translation>由 {holder}</translation>
    </message>
    <message>
        <source>{ms:.1f} ms</source>
        <translation>{ms:.1f} 毫秒</translation>
    </message>
    <message>
        <source>{part} ({percent} %)</source>
        <translation>{part}（{percent} %）</translation>
    </message>
    <message>
        <source>Cannot read {path}: {message}</source>
        <translation>无法读取 {path}：{message}</translation>
    </message>
    <message>
        <source>Failed: {message}</source>
        <translation>失败：{message}</translation>
    </message>
    <message>
        <source>Pruned by its sweep: {why}</source>
        <translation>被其超参数扫描剪枝：{why}</translation>
    </message>
    <message numerus="yes">
        <source>{name}: %n trial(s)</source>
        <translation>
            <numerusform>{name}：%n 个试验</numerusform>
        </translation>
    </message>
    <message>
        <source>best {objective}: {value:.4g}, {trial}</source>
        <translation>最佳 {objective}：{value:.4g}，{trial}</translation>
    </message>
</context>
<context>
    <name>ScalingDialog</name>
    <message>
        <source>Replicas</source>
        <translation>副本数</translation>
    </message>
    <message>
        <source>Examples/s</source>
        <translation>样本/秒</translation>
    </message>
    <message>
        <source>Speed-up</source>
        <translation>加速比</translation>
    </message>
    <message>
        <source>Efficiency</source>
        <translation>效率</translation>
    </message>
    <message>
        <source>Run folder, or why the count failed</source>
        <translation>运行文件夹，或该副本数失败的原因</translation>
    </message>
    <message>
        <source>Write replica counts as whole numbers, e.g. 1, 2, 4.</source>
        <translation>请用整数填写副本数，例如 1, 2, 4。</translation>
    </message>
    <message>
        <source>Replica counts go from 1 to {max_count}.</source>
        <translation>副本数的范围是 1 到 {max_count}。</translation>
    </message>
    <message>
        <source>Each replica is one of the GPUs ticked in the run form. With the same global batch, more GPUs should mean more examples per second; efficiency shows how much of the ideal you get.</source>
        <translation>每个副本是运行表单中勾选的一个 GPU。在全局批处理大小相同时，更多 GPU 应当带来每秒更多的样本；效率表示达到了理想值的多少。</translation>
    </message>
    <message>
        <source>Fewer than two counts were measured, so there is nothing to compare yet.</source>
        <translation>测得的副本数少于两个，暂时无法比较。</translation>
    </message>
    <message>
        <source>parameter_server: each count is that many worker processes, with one parameter server and the coordinator, all on this machine&apos;s CPU cores ({cores}). More workers help only while there are cores to spare; the study shows where adding workers stops paying.</source>
        <translation>parameter_server：每个数值表示相应数量的工作器进程，另加一个参数服务器和协调器，全部运行在本机的 CPU 核心（{cores} 个）上。只有在还有空闲核心时，更多工作器才有帮助；研究会显示增加工作器从何时起不再划算。</translation>
    </message>
    <message>
        <source>Note: with {listed} replicas, the replicas are virtual CPU devices. They split this machine&apos;s CPU cores ({cores}) rather than adding any, so do not expect a speed-up: the study then shows what distribution itself costs (all-reduce, smaller per-replica batches). Tick GPUs in the run form to measure real devices.</source>
        <translation>注意：副本数为 {listed} 时，副本是虚拟 CPU 设备。它们分摊本机的 CPU 核心（{cores} 个）而不是增加核心，所以不要期望加速：此时研究显示的是分布式本身的开销（all-reduce、更小的每副本批次）。在运行表单中勾选 GPU 才能测量真实设备。</translation>
    </message>
    <message>
        <source>More replicas did not help: the fewest, {fastest}, were fastest; {slowest} ran at {speedup:.2f}× their speed.</source>
        <translation>更多副本没有帮助：最少的 {fastest} 个副本最快；{slowest} 个副本的速度只有其 {speedup:.2f}×。</translation>
    </message>
    <message>
        <source>{fastest} replicas were fastest: {speedup:.2f}× the throughput of {base} ({efficiency:.0%} scaling efficiency).</source>
        <translation>{fastest} 个副本最快：吞吐量是 {base} 个副本的 {speedup:.2f}×（扩展效率 {efficiency:.0%}）。</translation>
    </message>
    <message>
        <source>Scaling study</source>
        <translation>扩展性研究</translation>
    </message>
    <message>
        <source>Replica counts to measure, e.g. 1, 2, 4; each is a fresh trainer process</source>
        <translation>要测量的副本数，例如 1, 2, 4；每个都是一个全新的训练器进程</translation>
    </message>
    <message>
        <source>Start study</source>
        <translation>开始研究</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Stop the study now: the count in training is stopped and no other starts</source>
        <translation>立即停止研究：正在训练的那个副本数会被停止，其余的不再开始</translation>
    </message>
    <message>
        <source>no study yet</source>
        <translation>尚未研究</translation>
    </message>
    <message>
        <source>Step anatomy</source>
        <translation>步骤剖析</translation>
    </message>
    <message>
        <source>replicas</source>
        <translation>副本数</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>examples / s</source>
        <translation>样本/秒</translation>
    </message>
    <message>
        <source>Scaling efficiency</source>
        <translation>扩展效率</translation>
    </message>
    <message>
        <source>% of linear scaling</source>
        <translation>线性扩展的 %</translation>
    </message>
    <message>
        <source>Replica counts:</source>
        <translation>副本数：</translation>
    </message>
    <message>
        <source>{samples:,} synthetic examples</source>
        <translation>{samples:,} 个合成样本</translation>
    </message>
    <message>
        <source>{kind} data from {path}</source>
        <translation>来自 {path} 的 {kind} 数据</translation>
    </message>
    <message>
        <source>Studies the run form&apos;s config: {loop} loop, global batch {global_batch_size}, {epochs} epochs, {data}. Each count is a fresh trainer; throughput is the mean of the epochs after the first.</source>
        <translation>研究运行表单的配置：{loop} 循环，全局批处理大小 {global_batch_size}，{epochs} 个轮次，{data}。每个副本数都用一个全新的训练器；吞吐量取第一个轮次之后各轮次的平均值。</translation>
    </message>
    <message>
        <source>Cannot create a folder for the study: {exc}</source>
        <translation>无法为研究创建文件夹：{exc}</translation>
    </message>
    <message>
        <source>The study&apos;s runs are kept in {root}</source>
        <translation>研究的运行保存在 {root}</translation>
    </message>
    <message>
        <source>starting the study…</source>
        <translation>正在开始研究…</translation>
    </message>
    <message numerus="yes">
        <source>training with %n worker(s)</source>
        <translation>
            <numerusform>正在用 %n 个工作器训练</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>training with %n replica(s)</source>
        <translation>
            <numerusform>正在用 %n 个副本训练</numerusform>
        </translation>
    </message>
    <message>
        <source> (count {done} of {total})…</source>
        <translation>（第 {done} 个，共 {total} 个）…</translation>
    </message>
    <message>
        <source>The scaling study stopped: {message}</source>
        <translation>扩展性研究已停止：{message}</translation>
    </message>
    <message>
        <source>cancelled after {measured} of {total} counts measured</source>
        <translation>已取消，{total} 个中测得 {measured} 个</translation>
    </message>
    <message>
        <source>done: {measured} of {total} counts measured</source>
        <translation>完成：{total} 个中测得 {measured} 个</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>ideal (linear)</source>
        <translation>理想（线性）</translation>
    </message>
    <message>
        <source>failed: {error}</source>
        <translation>失败：{error}</translation>
    </message>
</context>
<context>
    <name>SpaceEditor</name>
    <message>
        <source>Vary</source>
        <translation>改变</translation>
    </message>
    <message>
        <source>How</source>
        <translation>方式</translation>
    </message>
    <message>
        <source>Values (comma-separated)</source>
        <translation>取值（以逗号分隔）</translation>
    </message>
    <message>
        <source>Add a field</source>
        <translation>添加字段</translation>
    </message>
    <message>
        <source>A choice lists values, e.g. 32, 64 or adam, sgd or [16, 8], [64, 32]; a range is its low and high end, e.g. 0.0001, 0.1.</source>
        <translation>选项列出各个取值，例如 32, 64 或 adam, sgd 或 [16, 8], [64, 32]；范围写出下限和上限，例如 0.0001, 0.1。</translation>
    </message>
</context>
<context>
    <name>StacksDialog</name>
    <message>
        <source>Python stacks of {worker} (pid {pid})</source>
        <translation>{worker} 的 Python 调用栈（pid {pid}）</translation>
    </message>
    <message>
        <source>Reading the Python stacks of {worker}…</source>
        <translation>正在读取 {worker} 的 Python 调用栈…</translation>
    </message>
    <message>
        <source>Python stacks</source>
        <translation>Python 调用栈</translation>
    </message>
    <message>
        <source>Every thread of {worker}, innermost call first:</source>
        <translation>{worker} 的每个线程，最内层调用在前：</translation>
    </message>
    <message>
        <source>The stacks of {worker} could not be read:</source>
        <translation>无法读取 {worker} 的调用栈：</translation>
    </message>
</context>
<context>
    <name>Status</name>
    <message>
        <source>completed</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>pruned</source>
        <translation>已剪枝</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>killed</source>
        <translation>被强制结束</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>被中断</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>unreadable</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <source>trained every planned epoch</source>
        <translation>已训练完所有计划的轮次</translation>
    </message>
    <message>
        <source>stopped on request; it left a checkpoint</source>
        <translation>应请求停止；留有检查点</translation>
    </message>
    <message>
        <source>a sweep&apos;s trial its pruner stopped early; it left a checkpoint</source>
        <translation>超参数扫描的剪枝器提前停止了这个试验；它留下了检查点</translation>
    </message>
    <message>
        <source>the trainer reported a failure</source>
        <translation>训练器报告了失败</translation>
    </message>
    <message>
        <source>ended without a word (killed or crashed); it resumes from its last checkpoint</source>
        <translation>未留任何消息就结束了（被强制结束或崩溃）；可从最近的检查点恢复</translation>
    </message>
    <message>
        <source>did not stop in time and was killed; it resumes from its last checkpoint</source>
        <translation>未能及时停止而被强制结束；可从最近的检查点恢复</translation>
    </message>
    <message>
        <source>a process is training it now</source>
        <translation>有进程正在训练它</translation>
    </message>
    <message>
        <source>its files cannot be read</source>
        <translation>其文件无法读取</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>启动中</translation>
    </message>
    <message>
        <source>waiting for peers</source>
        <translation>等待其他工作器</translation>
    </message>
    <message>
        <source>training</source>
        <translation>训练中</translation>
    </message>
    <message>
        <source>evaluating</source>
        <translation>评估中</translation>
    </message>
    <message>
        <source>lost</source>
        <translation>已丢失</translation>
    </message>
    <message>
        <source>rejoined</source>
        <translation>已重新加入</translation>
    </message>
    <message>
        <source>finished</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>stalled</source>
        <translation>停滞</translation>
    </message>
</context>
<context>
    <name>SweepDialog</name>
    <message>
        <source>Sweep</source>
        <translation>超参数扫描</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <source>No trial starts after this long; the ones training finish</source>
        <translation>超过这段时间后不再开始新的试验；正在训练的试验会完成</translation>
    </message>
    <message>
        <source>as the devices allow</source>
        <translation>按设备允许</translation>
    </message>
    <message>
        <source>Trials training at once; on the CPU the default is half the cores, so the machine stays usable</source>
        <translation>同时训练的试验数；在 CPU 上默认为核心数的一半，使本机仍可使用</translation>
    </message>
    <message>
        <source>Each trial trains on this many GPUs, as its own Mirrored replicas</source>
        <translation>每个试验在这么多个 GPU 上训练，作为它自己的 Mirrored 副本</translation>
    </message>
    <message>
        <source>Objective:</source>
        <translation>目标：</translation>
    </message>
    <message>
        <source>Method:</source>
        <translation>方法：</translation>
    </message>
    <message>
        <source>Trials:</source>
        <translation>试验数：</translation>
    </message>
    <message>
        <source>Time budget:</source>
        <translation>时间预算：</translation>
    </message>
    <message>
        <source>Stop trials early:</source>
        <translation>提前停止试验：</translation>
    </message>
    <message>
        <source>Trials at once:</source>
        <translation>同时试验数：</translation>
    </message>
    <message>
        <source>GPUs per trial:</source>
        <translation>每个试验的 GPU 数：</translation>
    </message>
    <message>
        <source>What varies</source>
        <translation>改变什么</translation>
    </message>
    <message>
        <source>How</source>
        <translation>如何扫描</translation>
    </message>
    <message>
        <source>Plan</source>
        <translation>计划</translation>
    </message>
    <message>
        <source>Start sweep</source>
        <translation>开始扫描</translation>
    </message>
    <message>
        <source>Open a sweep…</source>
        <translation>打开超参数扫描…</translation>
    </message>
    <message>
        <source>Open a sweep&apos;s folder: its trials and where it stands; Continue resumes a stopped sweep</source>
        <translation>打开超参数扫描的文件夹：查看其试验和当前进度；“继续”可恢复已停止的扫描</translation>
    </message>
    <message>
        <source>Varies the run form&apos;s config: {strategy}, {epochs} epochs, global batch {batch}, learning rate {lr:g}, model {model}. Each trial is an ordinary run folder.</source>
        <translation>改变运行表单中的配置：{strategy}，{epochs} 个轮次，全局批次 {batch}，学习率 {lr:g}，模型 {model}。每个试验都是一个普通的运行文件夹。</translation>
    </message>
    <message>
        <source>Slot {n}: {devices}, {replicas} replica(s); per-replica batch {batches}</source>
        <translation>槽位 {n}：{devices}，{replicas} 个副本；每副本批次 {batches}</translation>
    </message>
    <message>
        <source>{at_once} trial(s) at once, {trials} in all; each trains {epochs} epoch(s).</source>
        <translation>同时 {at_once} 个试验，共 {trials} 个；每个训练 {epochs} 个轮次。</translation>
    </message>
    <message>
        <source>Cannot create the sweep&apos;s folder: {exc}</source>
        <translation>无法创建扫描的文件夹：{exc}</translation>
    </message>
    <message>
        <source>A sweep&apos;s folder</source>
        <translation>扫描的文件夹</translation>
    </message>
</context>
<context>
    <name>SweepNames</name>
    <message>
        <source>TPE (model-based: learns where good trials are)</source>
        <translation>TPE（基于模型：学习好的试验在哪里）</translation>
    </message>
    <message>
        <source>random</source>
        <translation>随机</translation>
    </message>
    <message>
        <source>grid (every combination)</source>
        <translation>网格（所有组合）</translation>
    </message>
    <message>
        <source>median: stop a trial worse than the median at the same epoch</source>
        <translation>中位数：在同一轮次比中位数差的试验被停止</translation>
    </message>
    <message>
        <source>successive halving: keep the best share at each rung</source>
        <translation>逐次减半：每一级只保留最好的一部分</translation>
    </message>
    <message>
        <source>none: every trial trains all its epochs</source>
        <translation>不停止：每个试验训练完所有轮次</translation>
    </message>
    <message>
        <source>validation loss (lower is better)</source>
        <translation>验证损失（越低越好）</translation>
    </message>
    <message>
        <source>validation accuracy (higher is better)</source>
        <translation>验证准确率（越高越好）</translation>
    </message>
    <message>
        <source>training loss (lower is better)</source>
        <translation>训练损失（越低越好）</translation>
    </message>
    <message>
        <source>training accuracy (higher is better)</source>
        <translation>训练准确率（越高越好）</translation>
    </message>
    <message>
        <source>choice</source>
        <translation>选项</translation>
    </message>
    <message>
        <source>log-uniform range</source>
        <translation>对数均匀范围</translation>
    </message>
    <message>
        <source>uniform range</source>
        <translation>均匀范围</translation>
    </message>
    <message>
        <source>whole numbers</source>
        <translation>整数</translation>
    </message>
</context>
<context>
    <name>SweepView</name>
    <message>
        <source>Trial</source>
        <translation>试验</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Objective</source>
        <translation>目标值</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>Duration</source>
        <translation>时长</translation>
    </message>
    <message>
        <source>Devices</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>Sweep: {folder}</source>
        <translation>超参数扫描：{folder}</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the sweep: training trials checkpoint; Continue resumes it</source>
        <translation>停止扫描：正在训练的试验会保存检查点；“继续”可恢复它</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>继续</translation>
    </message>
    <message>
        <source>Continue the stopped sweep where it was, in the same folder</source>
        <translation>在同一文件夹中从停下的地方继续已停止的扫描</translation>
    </message>
    <message>
        <source>Use the best trial&apos;s config</source>
        <translation>使用最佳试验的配置</translation>
    </message>
    <message>
        <source>epoch</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>{objective} · {method} · {trials} trials · pruning: {pruner}</source>
        <translation>{objective} · {method} · {trials} 个试验 · 剪枝：{pruner}</translation>
    </message>
    <message>
        <source>stopping: the training trials save a checkpoint…</source>
        <translation>正在停止：训练中的试验正在保存检查点…</translation>
    </message>
    <message>
        <source>The sweep stopped: {message}</source>
        <translation>扫描已停止：{message}</translation>
    </message>
    <message>
        <source>trained by another sweep process: {finished} of {budget} trials finished, {running} training</source>
        <translation>由另一个扫描进程训练中：{budget} 个试验中已完成 {finished} 个，{running} 个训练中</translation>
    </message>
    <message>
        <source>reading the sweep…</source>
        <translation>正在读取超参数扫描…</translation>
    </message>
    <message>
        <source>{finished} of {budget} trials finished, {running} training</source>
        <translation>{budget} 个试验中已完成 {finished} 个，{running} 个正在训练</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>sweep {status}: {finished} of {budget} trials finished</source>
        <translation>扫描{status}：{budget} 个试验中已完成 {finished} 个</translation>
    </message>
    <message>
        <source>not running</source>
        <translation>未运行</translation>
    </message>
    <message>
        <source>pruned at epoch {epoch}: {why}</source>
        <translation>在第 {epoch} 轮被剪枝：{why}</translation>
    </message>
    <message>
        <source>trial {number}</source>
        <translation>试验 {number}</translation>
    </message>
    <message>
        <source>all trials: {objective} per epoch; select trials to compare them</source>
        <translation>所有试验：每轮的 {objective}；选择试验以对比</translation>
    </message>
    <message>
        <source>Best trial: none completed yet</source>
        <translation>最佳试验：尚无完成的试验</translation>
    </message>
    <message>
        <source>Trials are run folders in {folder}. Closing this view leaves the sweep running: its row in the Runs tab or Run › Sweep opens it again.</source>
        <translation>试验是 {folder} 中的运行文件夹。关闭此视图后扫描继续运行：在“运行记录”标签页中它所在的行或“运行 › 超参数扫描”可再次打开它。</translation>
    </message>
    <message>
        <source>&lt;b&gt;Best trial: {number}&lt;/b&gt;, {objective} {value:.4g}</source>
        <translation>&lt;b&gt;最佳试验：{number}&lt;/b&gt;，{objective} {value:.4g}</translation>
    </message>
    <message>
        <source>training (epoch {epoch})</source>
        <translation>训练中（第 {epoch} 轮）</translation>
    </message>
    <message>
        <source>starting</source>
        <translation>启动中</translation>
    </message>
    <message>
        <source>pruned at epoch {epoch}</source>
        <translation>在第 {epoch} 轮被剪枝</translation>
    </message>
    <message>
        <source>interrupted at epoch {epoch}</source>
        <translation>在第 {epoch} 轮被中断</translation>
    </message>
    <message>
        <source>failed: {why}</source>
        <translation>失败：{why}</translation>
    </message>
    <message>
        <source>completed</source>
        <translation>已完成</translation>
    </message>
</context>
<context>
    <name>TensorBoardCommand</name>
    <message>
        <source>select runs to get the command that opens them in TensorBoard</source>
        <translation>选择运行以获得在 TensorBoard 中打开它们的命令</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <source>Copy the command to the clipboard; paste it into a terminal</source>
        <translation>把命令复制到剪贴板；粘贴到终端中运行</translation>
    </message>
    <message>
        <source>TensorBoard:</source>
        <translation>TensorBoard：</translation>
    </message>
</context>
<context>
    <name>TrainingPlots</name>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>准确率</translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation>准确率</translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation>吞吐量</translation>
    </message>
    <message>
        <source>examples / s</source>
        <translation>样本/秒</translation>
    </message>
    <message>
        <source>The x-axis of every plot: training steps, or seconds since Start</source>
        <translation>所有图表的横轴：训练步数，或自开始以来的秒数</translation>
    </message>
    <message>
        <source>&amp;x-axis:</source>
        <translation>横轴(&amp;X)：</translation>
    </message>
    <message>
        <source>x-axis</source>
        <translation>横轴</translation>
    </message>
</context>
<context>
    <name>TrainingRunner</name>
    <message>
        <source>the trainer takes no more requests (it is stopping or gone); no profile was asked for</source>
        <translation>训练进程不再接受请求（正在停止或已退出）；未请求性能剖析</translation>
    </message>
    <message>
        <source>asked the trainer for a profile of its next {steps} steps</source>
        <translation>已请求训练进程剖析其接下来的 {steps} 步</translation>
    </message>
    <message>
        <source>Could not start the trainer: {error}</source>
        <translation>无法启动训练器：{error}</translation>
    </message>
    <message>
        <source>the trainer did not stop within {seconds} s; killed it</source>
        <translation>训练器未在 {seconds} 秒内停止；已强制结束</translation>
    </message>
    <message>
        <source>garbage on the event channel ignored: {line}</source>
        <translation>已忽略事件通道上的无效内容：{line}</translation>
    </message>
    <message>
        <source>The trainer was ended by signal {signal} (a crash, or killed from outside).</source>
        <translation>训练器被信号 {signal} 结束（崩溃，或被外部强制结束）。</translation>
    </message>
    <message>
        <source>The trainer exited with code {code} without reporting the end of the run.</source>
        <translation>训练器以代码 {code} 退出，没有报告运行结束。</translation>
    </message>
</context>
<context>
    <name>WarmTrainer</name>
    <message>
        <source>the warm trainer is off</source>
        <translation>预热的训练器已关闭</translation>
    </message>
    <message>
        <source>the warm trainer is still importing TensorFlow</source>
        <translation>预热的训练器仍在导入 TensorFlow</translation>
    </message>
    <message>
        <source>no warm trainer: {error}</source>
        <translation>没有预热的训练器：{error}</translation>
    </message>
    <message>
        <source>no warm trainer yet</source>
        <translation>还没有预热的训练器</translation>
    </message>
    <message>
        <source>the environment changed since the warm trainer started ({names})</source>
        <translation>预热的训练器启动后环境已改变（{names}）</translation>
    </message>
    <message>
        <source>Keep a &amp;trainer warm</source>
        <translation>保持一个预热的训练器(&amp;T)</translation>
    </message>
    <message>
        <source>Start runs in one to two seconds: one trainer process keeps TensorFlow imported (about 0.6 GB of memory, no CPU while it waits)</source>
        <translation>一到两秒即可开始运行：一个训练器进程预先导入 TensorFlow（约占 0.6 GB 内存，等待时不占 CPU）</translation>
    </message>
    <message>
        <source>warm trainer ready ({memory:.0f} MB)</source>
        <translation>预热的训练器已就绪（{memory:.0f} MB）</translation>
    </message>
    <message>
        <source>warm trainer ready</source>
        <translation>预热的训练器已就绪</translation>
    </message>
    <message>
        <source>no warm trainer ({error})</source>
        <translation>没有预热的训练器（{error}）</translation>
    </message>
    <message>
        <source>warm trainer off</source>
        <translation>预热训练器已关闭</translation>
    </message>
    <message>
        <source>warm trainer: importing TensorFlow…</source>
        <translation>预热训练器：正在导入 TensorFlow…</translation>
    </message>
</context>
<context>
    <name>WatchBanner</name>
    <message>
        <source>Stop watching</source>
        <translation>停止观看</translation>
    </message>
    <message>
        <source>Leave the run to train on; the Live tab is free for this window&apos;s runs</source>
        <translation>让该运行继续训练；“实时”页留给本窗口的运行</translation>
    </message>
    <message>
        <source>reading its folder</source>
        <translation>读取其文件夹</translation>
    </message>
    <message>
        <source>waiting for its first events</source>
        <translation>等待它的第一个事件</translation>
    </message>
    <message>
        <source>on this machine</source>
        <translation>在本机</translation>
    </message>
    <message>
        <source>on {host}</source>
        <translation>在 {host} 上</translation>
    </message>
    <message>
        <source>pid {pid} {where}, {command}</source>
        <translation>pid {pid}，{where}，{command}</translation>
    </message>
    <message>
        <source>no lock this machine can see: it may train on another machine</source>
        <translation>本机看不到它的锁：它可能在另一台机器上训练</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Watching {name} ({where}) · {state}
{folder}</source>
        <translation>正在观看 {name}（{where}）· {state}
{folder}</translation>
    </message>
</context>
<context>
    <name>WorkersPanel</name>
    <message>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>Role</source>
        <translation>角色</translation>
    </message>
    <message>
        <source>PID</source>
        <translation>PID</translation>
    </message>
    <message>
        <source>State</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>消息</translation>
    </message>
    <message>
        <source>Cluster tasks</source>
        <translation>集群任务</translation>
    </message>
    <message>
        <source>parameter_server: steps each worker has run, as the coordinator saw them come back</source>
        <translation>parameter_server：协调器收到的每个工作器已完成的步数</translation>
    </message>
    <message>
        <source>Double-click a task to show only its lines in the log</source>
        <translation>双击任务可在日志中只显示它的行</translation>
    </message>
    <message>
        <source>Show Python stacks</source>
        <translation>显示 Python 调用栈</translation>
    </message>
    <message>
        <source>log: {path}</source>
        <translation>日志：{path}</translation>
    </message>
    <message>
        <source>Right-click the task to see its Python stacks</source>
        <translation>右键单击该任务可查看其 Python 调用栈</translation>
    </message>
    <message>
        <source>launching {expected} tasks on 127.0.0.1…</source>
        <translation>正在 127.0.0.1 上启动 {expected} 个任务…</translation>
    </message>
    <message>
        <source>Start launches the cluster&apos;s tasks on 127.0.0.1; their states appear here.</source>
        <translation>“开始”会在 127.0.0.1 上启动集群的任务；它们的状态显示在这里。</translation>
    </message>
</context>
<context>
    <name>gui.exports</name>
    <message>
        <source>PNG image (*.png);;SVG vector image (*.svg)</source>
        <translation>PNG 图像 (*.png);;SVG 矢量图 (*.svg)</translation>
    </message>
    <message>
        <source>a name without a suffix</source>
        <translation>没有后缀的文件名</translation>
    </message>
    <message>
        <source>a plot is exported as .png or .svg, not {given}</source>
        <translation>图表只能导出为 .png 或 .svg，不能是 {given}</translation>
    </message>
    <message>
        <source>there is no folder {folder}</source>
        <translation>文件夹 {folder} 不存在</translation>
    </message>
    <message>
        <source>could not write {path}</source>
        <translation>无法写入 {path}</translation>
    </message>
    <message>
        <source>Export plot…</source>
        <translation>导出图表…</translation>
    </message>
    <message>
        <source>Export plot</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>Export failed: {error}</source>
        <translation>导出失败：{error}</translation>
    </message>
    <message>
        <source>Wrote {path}</source>
        <translation>已写入 {path}</translation>
    </message>
</context>
<context>
    <name>gui.form.model_form</name>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
</context>
<context>
    <name>gui.runs.scaling_dialog</name>
    <message>
        <source>replicas</source>
        <translation>副本数</translation>
    </message>
</context>
</TS>
