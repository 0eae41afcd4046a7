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
        <source>nested too deeply to be a run config (a run config is 3 levels deep)</source>
        <translation>嵌套过深，不可能是运行配置（运行配置只有 3 层）</translation>
    </message>
    <message>
        <source>no such config file</source>
        <translation>配置文件不存在</translation>
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
        <source>must be an integer &gt;= 1 or &quot;auto&quot;</source>
        <translation>必须是 &gt;= 1 的整数或 &quot;auto&quot;</translation>
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
        <source>not an architecture of tf_keras.applications{hint}</source>
        <translation>不是 tf_keras.applications 中的架构{hint}</translation>
    </message>
    <message>
        <source>a weights file (.h5) saved on this machine</source>
        <translation>本机上保存的权重文件（.h5）</translation>
    </message>
    <message>
        <source>a Python file defining the model</source>
        <translation>定义模型的 Python 文件</translation>
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
        <source>CSV file {path} is empty; it needs a header row and at least one data row</source>
        <translation>CSV 文件 {path} 为空；需要一个表头行和至少一行数据</translation>
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
        <source>CSV file {path}, line {line}: {n_row} values for {width} columns</source>
        <translation>CSV 文件 {path} 第 {line} 行：{width} 列却有 {n_row} 个值</translation>
    </message>
    <message>
        <source>CSV file {path}, line {line}: column {header!r} holds text {row!r}; only numbers can train a model: encode that column as numbers or remove it</source>
        <translation>CSV 文件 {path} 第 {line} 行：列 {header!r} 含文本 {row!r}；只有数值能训练模型：请把该列编码为数值或删除它</translation>
    </message>
    <message>
        <source>CSV file {path}, line {line} (example {rows}): column {header!r} has a missing or infinite value; fill or drop that row</source>
        <translation>CSV 文件 {path} 第 {line} 行（样本 {rows}）：列 {header!r} 有缺失值或无穷值；请补全或删除该行</translation>
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
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ClusterEditor</name>
    <message>
        <source>Write start scripts, a README and a Kubeflow TFJob for each task, or a Slurm job</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run these tasks on this machine with the run form&apos;s config; the Live tab shows each with its role</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(none)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The job of the process this TF_CONFIG is for; {no_task}: a cluster description shared by all tasks (what export uses)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Import file…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read a TF_CONFIG or cluster.json file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Paste</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read a TF_CONFIG from the clipboard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the TF_CONFIG as one line, as the environment variable wants it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start here</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export for other machines…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the selected tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This process:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>index</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TF_CONFIG (JSON)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Problems</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every role runs: chief, worker, ps (parameter_server) and evaluator. Start here runs these tasks on this machine (127.0.0.1, the ports above) with the run form&apos;s config, each shown in the Live tab with its role; the run form&apos;s Start does the same on free ports. For other machines, export the cluster (start scripts and a Kubeflow TFJob, or a Slurm job) and start each task there.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{source} holds no TF_CONFIG: {problem}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Imported {source}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read {path}: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import TF_CONFIG</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>JSON files (*.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the clipboard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copied the TF_CONFIG (one line) to the clipboard.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The table keeps the last valid cluster.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (checked for strategy {strategy})</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n error(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n warning(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>No problems{against}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix the errors first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tasks on other machines ({address}) are started there: export the cluster</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ClusterExportDialog</name>
    <message>
        <source>The machines in the table: start scripts (sh, PowerShell) and a Kubeflow TFJob</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A Slurm job: an sbatch script; Slurm picks the nodes, one per task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the cluster for other machines</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run form, {field}: {problem}</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Writes what the %n task(s) of the Cluster tab need, with the run form&apos;s config ({strategy}, {epochs} epochs, global batch {global_batch_size}). Every task runs the same train command; its TF_CONFIG says what it is.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>none (CPU nodes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPUs each node asks Slurm for (#SBATCH --gpus-per-node)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The port every task listens on, on its node</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;GPUs per node:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>P&amp;ort:</source>
        <translation type="unfinished"></translation>
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
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After the export: what to copy where, and how to start it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>F&amp;or:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix these first:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose a folder to write the bundle to.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{out} holds other files, so nothing was written there. Proposed instead: {fresh} (Export writes it; or choose another folder).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not write the bundle: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>how to submit it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>what to copy where</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Wrote %n file(s) to {out}. Next: {what} (README.md):</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Replace the bundle?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{out} holds a bundle exported before. It is replaced (task folders it no longer has are removed); files of your own in it stay. Export there?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export the bundle to</source>
        <translation type="unfinished"></translation>
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
        <source>  ← this process</source>
        <translation>  ← 本进程</translation>
    </message>
</context>
<context>
    <name>ComparePlots</name>
    <message>
        <source>step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>epoch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>wall time since start (s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>wall time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loss</source>
        <translation type="unfinished">损失</translation>
    </message>
    <message>
        <source>loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation type="unfinished">准确率</translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>examples / s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step and wall time show every batch; epoch shows per-epoch means with validation (dashed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exponential moving average per step: 0 shows the raw curve, higher values smooth more</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;x-axis:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>s&amp;moothing:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU utilisation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>% busy (solid), % memory (dashed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>solid: training, dashed: validation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>faint: raw, solid: smoothed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select runs in the table to compare them (Ctrl- or Shift-click for several).</source>
        <translation type="unfinished"></translation>
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
        <source>CSV files (*.csv);;All files (*)</source>
        <translation>CSV 文件 (*.csv);;所有文件 (*)</translation>
    </message>
    <message>
        <source>NumPy archives (*.npz);;All files (*)</source>
        <translation>NumPy 归档 (*.npz);;所有文件 (*)</translation>
    </message>
    <message>
        <source>TFRecord files (*.tfrecord *.tfrecords *.tfr);;All files (*)</source>
        <translation>TFRecord 文件 (*.tfrecord *.tfrecords *.tfr);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Python files (*.py)</source>
        <translation>Python 文件 (*.py)</translation>
    </message>
    <message>
        <source>the tutorial&apos;s random data</source>
        <translation>教程中的随机数据</translation>
    </message>
    <message>
        <source>numeric columns and a label column; streamed, so it may be larger than memory</source>
        <translation>数值列加一个标签列；流式读取，可以大于内存</translation>
    </message>
    <message>
        <source>NumPy arrays of features and labels, read into memory</source>
        <translation>特征和标签的 NumPy 数组，读入内存</translation>
    </message>
    <message>
        <source>one subfolder of images per class (PNG, JPEG, BMP, GIF)</source>
        <translation>每个类别一个图像子文件夹（PNG、JPEG、BMP、GIF）</translation>
    </message>
    <message>
        <source>tf.train.Example records: features and an int64 label</source>
        <translation>tf.train.Example 记录：特征和一个 int64 标签</translation>
    </message>
    <message>
        <source>make_dataset(input_context) in your file returns (features, label) examples</source>
        <translation>你的文件中的 make_dataset(input_context) 返回 (特征, 标签) 样本</translation>
    </message>
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
        <source>Examples per epoch</source>
        <translation>每轮次样本数</translation>
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
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The device probe could not start: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The device probe gave no answer within {seconds} s.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>DevicesPanel</name>
    <message>
        <source>&lt;b&gt;No GPU found: every strategy runs on the CPU.&lt;/b&gt;&lt;ul style=&apos;margin-left:-20px&apos;&gt;&lt;li&gt;&lt;b&gt;default&lt;/b&gt;: no distribution; one replica on the CPU.&lt;/li&gt;&lt;li&gt;&lt;b&gt;one_device&lt;/b&gt;: all variables and steps placed on one device (CPU:0).&lt;/li&gt;&lt;li&gt;&lt;b&gt;mirrored&lt;/b&gt;: a copy of the model per device, gradients averaged by all-reduce. One CPU is one replica, unless you split it.&lt;/li&gt;&lt;li&gt;&lt;b&gt;multi_worker_mirrored&lt;/b&gt;: mirrored across worker processes that talk over the network; locally each worker is a process on this machine.&lt;/li&gt;&lt;li&gt;&lt;b&gt;parameter_server&lt;/b&gt;: a coordinator hands steps to worker processes, which update variables held by parameter-server processes, asynchronously; locally all are processes here.&lt;/li&gt;&lt;/ul&gt;&lt;b&gt;Virtual devices&lt;/b&gt; split the CPU into N logical devices before TensorFlow starts, so &lt;i&gt;mirrored&lt;/i&gt; runs N replicas: practise all-reduce, per-replica batches and sharding without a GPU (it is not faster: the replicas share the same cores).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>memory unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>compute capability {cc}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%n cores</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cores unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Looking for devices (TensorFlow starts in a child process)…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;Could not list devices.&lt;/b&gt; {message}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PCI bus {bus}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{text}
live figures: waiting for NVML…</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n GPU(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>no GPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{version} sees {found} and {cpus} CPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{text}
no live figures</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NVML is not available</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No live GPU figures: {why}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopped answering ({error})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>busy {percent}%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>busy: n/a (MIG instance)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · memory used {used:.1f} / {total:.1f} GiB</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>FirstStepLabel</name>
    <message>
        <source>Time from Start to the run&apos;s first training step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first step: waiting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first step after {seconds:.1f} s (warm trainer)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first step after {seconds:.1f} s (cold trainer)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>GpuPlot</name>
    <message>
        <source>GPUs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>% busy (solid), % memory (dashed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{gpu} busy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>memory</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LivePlot</name>
    <message>
        <source>step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>time since Start (s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Plot of {what} over training steps or time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>smoothed (EMA)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>epoch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>validation</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LogModel</name>
    <message numerus="yes">
        <source>   [%n raw line(s)]</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Expand to see the lines as TensorFlow printed them</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>LogView</name>
    <message>
        <source>Trainer log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter log lines (e.g. error, epoch, warning)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Raw log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the run&apos;s stderr exactly as the trainer wrote it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the shown lines (or the selection) to the clipboard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Log</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <source>TensorFlow Distributed Training Dashboard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Devices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Live</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open config…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save config as…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;top…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Scaling study…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Export form as script…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export &amp;cluster for other machines…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TF Distributed Dashboard: configure, run and compare tf.distribute training.

Keys: Ctrl+Return starts a run, Esc stops it (after asking), Ctrl+1 … Ctrl+{tabs} show the tabs, Alt with an underlined letter moves to that field.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the stored run config cannot be shown ({error})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The last session&apos;s settings were not restored ({why}); the form starts from the defaults.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Fix %n problem(s) first ({fields}).</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>strategy: {strategy}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>replicas: {replicas}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per-replica batch: {per}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>state: {state}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>idle</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>starting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopping</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open config</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>{path} has %n problem(s):</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Opened {path}</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source> (it still has %n problem(s))</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Saved {path}{note}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open run config</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run configs (*.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save run config</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run configs (*.json)</source>
        <translation type="unfinished">运行配置 (*.json)</translation>
    </message>
    <message>
        <source>Cannot start the cluster</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fix the run form first ({fields}).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot start the run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the run?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The trainer saves a checkpoint and stops. Stop now?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per-replica batch: {per_replica_batch_size}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run {status}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run {status}. Results in {folder}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the run directory</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run {status}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run failed: {message}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loaded the run&apos;s config into the form</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No script for this strategy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export as script</source>
        <translation type="unfinished">导出为脚本</translation>
    </message>
    <message>
        <source>Python scripts (*.py)</source>
        <translation type="unfinished">Python 脚本 (*.py)</translation>
    </message>
    <message>
        <source>A run is in progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the run (it saves a checkpoint) and close the window?</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>ModelForm</name>
    <message>
        <source>Dense layers (the tutorial&apos;s model); images are flattened</source>
        <translation>Dense 层（教程中的模型）；图像会被展平</translation>
    </message>
    <message>
        <source>conv blocks with synchronized batch norm, pooling and a Dense head; for images</source>
        <translation>带同步批归一化和池化的卷积块，加一个 Dense 输出头；用于图像</translation>
    </message>
    <message>
        <source>an architecture of tf_keras.applications, random or local weights (never downloaded)</source>
        <translation>tf_keras.applications 中的架构，随机或本地权重（从不下载）</translation>
    </message>
    <message>
        <source>build_model(input_shape, num_classes) in your file returns an uncompiled tf_keras model</source>
        <translation>你的文件中的 build_model(input_shape, num_classes) 返回一个未编译的 tf_keras 模型</translation>
    </message>
    <message>
        <source>a .keras model (e.g. an earlier run&apos;s model.keras), trained further</source>
        <translation>一个 .keras 模型（例如之前某次运行的 model.keras），在其基础上继续训练</translation>
    </message>
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
        <source>Python files (*.py)</source>
        <translation>Python 文件 (*.py)</translation>
    </message>
    <message>
        <source>Keras models (*.keras)</source>
        <translation>Keras 模型 (*.keras)</translation>
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
</context>
<context>
    <name>RunControls</name>
    <message>
        <source>Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no run yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run progress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Starts a run of the run form&apos;s config</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asks the trainer to save a checkpoint and stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start a run (Ctrl+Return)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>starting the trainer…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopping…</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RunForm</name>
    <message>
        <source>No distribution: one replica on the first GPU, else the CPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Everything on the one device you tick.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One replica per ticked device (times virtual devices); gradients averaged by all-reduce.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mirrored across worker processes: Start runs the local workers on 127.0.0.1, one replica per ticked device each (the CPU is one device). The Cluster tab exports a cluster for other machines.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Asynchronous: a coordinator hands steps to the workers, parameter servers hold the variables, and a lost worker does not stop the run. Start runs them all on 127.0.0.1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Split a variable only when it is at least 256 KiB, into at most one shard per parameter server (TensorFlow&apos;s tutorial; a small model&apos;s variables stay whole)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Split every variable into one shard per parameter server (shows sharding even on a small model)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep every variable whole; variables are placed on the parameter servers in turn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Split each device into N logical devices (N replicas with mirrored)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Epochs</source>
        <translation>轮次(&amp;E)</translation>
    </message>
    <message>
        <source>Global &amp;batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Examples per step over all replicas; each replica gets global ÷ replicas</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Loop</source>
        <translation>循环(&amp;L)</translation>
    </message>
    <message>
        <source>fit: Keras model.fit; custom: strategy.run + strategy.reduce</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Optimizer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learning &amp;rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Validation split</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share of the data kept for validation; 0 plots no validation curve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Distribution</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting for the device list…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>validate each checkpoint in an evaluator task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An extra task validates every checkpoint the chief writes on the validation split, so training never waits for validation; its results are plotted as the validation curve</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>every epoch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>never by steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>every </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Strategy</source>
        <translation>策略(&amp;S)</translation>
    </message>
    <message>
        <source>Devices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>V&amp;irtual devices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Local &amp;workers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Worker processes Start launches on this machine (127.0.0.1); multi_worker_mirrored: worker 0 is the chief; parameter_server: a coordinator (the chief) is added</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Parameter servers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ps tasks Start launches: they hold the variables</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Variable s&amp;harding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How variables are split across the parameter servers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluator</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Checkpoints</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A stop always leaves a checkpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the probe found no devices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>per replica: known once devices are listed</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>not divisible by %n replica(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>= {per_replica} per replica × %n replica(s) per step; </source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n worker(s) take steps in turn</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source> ({count}&#xa0;per&#xa0;worker)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>= {per_replica} per replica × %n replica(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>{strategy} runs one replica per device in each worker; add local workers instead</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>RunProgress</name>
    <message>
        <source>starting…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> · ETA {eta}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>epoch {epoch}/{epochs} · step {step}/{steps} · {percent:.0f}%</source>
        <translation type="unfinished"></translation>
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
        <source>Load the selected run&apos;s config into the run form, to run it again with changes (double-click does the same)</source>
        <translation>把所选运行的配置载入运行表单，修改后再次运行（双击效果相同）</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>恢复</translation>
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
        <source>in this window</source>
        <translation>在本窗口中</translation>
    </message>
    <message>
        <source>by {holder}</source>
        <translation>由 {holder}</translation>
    </message>
    <message>
        <source>Cannot read {path}: {message}</source>
        <translation>无法读取 {path}：{message}</translation>
    </message>
    <message>
        <source>Failed: {message}</source>
        <translation>失败：{message}</translation>
    </message>
</context>
<context>
    <name>ScalingDialog</name>
    <message>
        <source>Replicas</source>
        <translation type="unfinished">副本数</translation>
    </message>
    <message>
        <source>Examples/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speed-up</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Efficiency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run folder, or why the count failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write replica counts as whole numbers, e.g. 1, 2, 4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replica counts go from 1 to {max_count}.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each replica is one of the GPUs ticked in the run form. With the same global batch, more GPUs should mean more examples per second; efficiency shows how much of the ideal you get.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fewer than two counts were measured, so there is nothing to compare yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>parameter_server: each count is that many worker processes, with one parameter server and the coordinator, all on this machine&apos;s CPU cores ({cores}). More workers help only while there are cores to spare; the study shows where adding workers stops paying.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Note: with {listed} replicas, the replicas are virtual CPU devices. They split this machine&apos;s CPU cores ({cores}) rather than adding any, so do not expect a speed-up: the study then shows what distribution itself costs (all-reduce, smaller per-replica batches). Tick GPUs in the run form to measure real devices.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>More replicas did not help: the fewest, {fastest}, were fastest; {slowest} ran at {speedup:.2f}× their speed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{fastest} replicas were fastest: {speedup:.2f}× the throughput of {base} ({efficiency:.0%} scaling efficiency).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scaling study</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replica counts to measure, e.g. 1, 2, 4; each is a fresh trainer process</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start study</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the study now: the count in training is stopped and no other starts</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no study yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>examples / s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Scaling efficiency</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>% of linear scaling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replica counts:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{samples:,} synthetic examples</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{kind} data from {path}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Studies the run form&apos;s config: {loop} loop, global batch {global_batch_size}, {epochs} epochs, {data}. Each count is a fresh trainer; throughput is the mean of the epochs after the first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create a folder for the study: {exc}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The study&apos;s runs are kept in {root}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>starting the study…</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>training with %n worker(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>training with %n replica(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source> (count {done} of {total})…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The scaling study stopped: {message}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cancelled after {measured} of {total} counts measured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>done: {measured} of {total} counts measured</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished">失败</translation>
    </message>
    <message>
        <source>ideal (linear)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed: {error}</source>
        <translation type="unfinished"></translation>
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
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>waiting for peers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>evaluating</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lost</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rejoined</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>finished</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TensorBoardCommand</name>
    <message>
        <source>select runs to get the command that opens them in TensorBoard</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy the command to the clipboard; paste it into a terminal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TensorBoard:</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TrainingPlots</name>
    <message>
        <source>Loss</source>
        <translation type="unfinished">损失</translation>
    </message>
    <message>
        <source>loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation type="unfinished">准确率</translation>
    </message>
    <message>
        <source>accuracy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Throughput</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>examples / s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The x-axis of every plot: training steps, or seconds since Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;x-axis:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>x-axis</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>TrainingRunner</name>
    <message>
        <source>Could not start the trainer: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The trainer was ended by signal {signal} (a crash, or killed from outside).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The trainer exited with code {code} without reporting the end of the run.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>WarmTrainer</name>
    <message>
        <source>Keep a &amp;trainer warm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start runs in about a second and a half: one trainer process keeps TensorFlow imported (about 0.6 GB of memory, no CPU while it waits)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warm trainer ready ({memory:.0f} MB)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warm trainer ready</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no warm trainer ({error})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warm trainer off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>warm trainer: importing TensorFlow…</source>
        <translation type="unfinished"></translation>
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
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PID</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>State</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Message</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cluster tasks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>parameter_server: steps each worker has run, as the coordinator saw them come back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Double-click a task to show only its lines in the log</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>log: {path}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>launching {expected} tasks on 127.0.0.1…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start launches the cluster&apos;s tasks on 127.0.0.1; their states appear here.</source>
        <translation type="unfinished"></translation>
    </message>
</context>
<context>
    <name>gui.exports</name>
    <message>
        <source>PNG image (*.png);;SVG vector image (*.svg)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a name without a suffix</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a plot is exported as .png or .svg, not {given}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>there is no folder {folder}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>could not write {path}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export plot…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export plot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export failed: {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Wrote {path}</source>
        <translation type="unfinished"></translation>
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
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
