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
</context>
</TS>
