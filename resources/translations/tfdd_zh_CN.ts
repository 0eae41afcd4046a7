<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name></name>
    <message>
        <source>not valid JSON: {exc}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nested too deeply to be a run config (a run config is 3 levels deep)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no such config file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>is {size:,.0f} MB; a run config is a few KB: is this the right file?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cannot be read: {value}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not UTF-8 text (byte 0x{byte:02x} at position {start}): a run config is a JSON text file; is this the right file?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a JSON object</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown key; known keys: {fields}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>wrong type; expected {annotation}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be one of: {allowed}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{a} or {b}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be divisible by the {replicas} replicas (each replica gets global / replicas examples); the nearest valid sizes are {sizes}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a number in (0, 10]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be in [0, 1), e.g. 0.2 keeps 20% for validation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be an integer &gt;= 1 or &quot;auto&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{why}; the name becomes part of the run folder&apos;s name: use up to {name_max_chars} characters without {name_forbidden} or control characters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a number &gt;= {low:g}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be at most {high:,}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be null (all GPUs, else the CPU) or a list like [&quot;GPU:0&quot;, &quot;GPU:1&quot;]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>each device must look like &quot;GPU:0&quot; or &quot;CPU:0&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a device is listed twice</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>strategy {strategy} uses one device; pick one or use mirrored</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>give the path of {what}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no such file ({what})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be one of: {model_kinds}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a non-empty list of positive layer sizes, e.g. [16, 8]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>filters per conv block, e.g. [32, 64]</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a positive whole number, e.g. 3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not an architecture of tf_keras.applications{hint}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a weights file (.h5) saved on this machine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a Python file defining the model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a .keras model file, e.g. an earlier run&apos;s model.keras</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a .keras file (tf-keras&apos;s model.save format)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be one of: {data_kinds}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be one of: {shard_policies}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a {kind} source is not read by TensorFlow&apos;s file readers, so it cannot be split by file; use data or auto (file works for csv and tfrecord)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>with file sharding each worker reads different files, so a validation split cannot be cut the same on every worker; use data, or validation_split 0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a number &gt;= 2 (labels are 0 .. classes-1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>examples</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>examples per epoch (the run&apos;s steps are this / batch)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a number &gt;= 2: {what}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be a number &gt;= 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>an .npz file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a CSV file (or a glob of several, e.g. data/part-*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TFRecord files</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no file matches ({what})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name the CSV column that holds the labels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be float (a list of numbers) or image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the shape of one example&apos;s features, e.g. [10] or [32, 32, 3] for an image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>give a folder with one subfolder of images per class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no such folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a Python file defining the dataset</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a python dataset brings its own validation examples through data.validation_function; set validation_split to 0</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a python dataset shards itself with input_context (input_pipeline_id, num_input_pipelines); leave auto</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>[height, width] in pixels, or null for as stored</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>must be one of: {color_modes}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mix of CPU and GPU devices; choose either GPUs or the CPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not on this machine (found: {found}); leave devices empty to use what is there</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the CPU is one device, &quot;CPU:0&quot;; split it with virtual_devices</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown data.kind {kind!r}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{info}: {n_train} training examples are fewer than one global batch of {global_batch}; use more data or a smaller global_batch_size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{kind} data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{workers} workers need at least {workers} files to split by file, and data.path matches {n_files}; split the data into more files, or use data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{source}: only one class ({present}) in the labels; a classifier needs at least two</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{source}: the labels are {shown}, but classes are numbered 0, 1, 2 … with every number used; renumber them {wanted} (otherwise the model gets {present} outputs, {unused} of them for classes without an example)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{source} has no examples</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{source}: labels are {dtype}, not class numbers 0, 1, 2, ...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{source}: example {i} has label {y!r}; labels must be class numbers 0, 1, 2, ... (0/1 for binary)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NPZ file {path}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{source} cannot be read ({value}); check data.path</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{source} holds a single array (.npy), not named arrays of features and labels; save them with numpy.savez(path, x=features, y=labels)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{source} has no array {missing!r}; its arrays are: {value} (set data.features_key and data.labels_key)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{source} cannot be read ({exc}); save it with numpy.savez</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{source}: features are {dtype}, not numbers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{source}: features must be (samples, features) and labels (samples,); got {shape} and {shape2}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no CSV file matches {path}; check data.path</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV file {path} has columns {file_header}, unlike {files}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV file {path}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV file {path} is empty; it needs a header row and at least one data row</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV file {path} has no column {label!r} for the labels; its columns are: {header}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV file {path} has only the label column; it needs feature columns too</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV file {path}, line {line}: {n_row} values for {width} columns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV file {path}, line {line}: column {header!r} holds text {row!r}; only numbers can train a model: encode that column as numbers or remove it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV file {path}, line {line} (example {rows}): column {header!r} has a missing or infinite value; fill or drop that row</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV file {path}, line {line}: label column {label!r} holds {row!r}; labels must be class numbers 0, 1, 2, ... (0/1 for binary): map the classes to numbers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV file {path} has a header but no data rows</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>image folder {path} does not exist; check data.path</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (images such as {image} lie in the folder itself)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>image folder {path} has no images in subfolders{hint}; put each class&apos;s images ({image_extensions}) in a subfolder named after the class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>image folder {path} has one class ({classes}); a classifier needs at least two subfolders of images, one per class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>image {path} cannot be read ({exc}); replace or delete it</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>image folder {path} has images of mixed sizes ({a}x{a2} in {fa}, {b}x{b2} in {fb}); set data.image_size, e.g. [64, 64], to resize them all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>image folder {path} mixes images with {a} channel(s) ({fa}) and {b} ({fb}); set data.color_mode to &quot;rgb&quot; or &quot;grayscale&quot; to convert them all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no TFRecord file matches {path}; check data.path</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TFRecord file {path}: {exc}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TFRecord files {path} hold no records</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TFRecord file {path}, record {n}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{where} has no feature {key!r}; its features are: {names}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{where}: label {labels_key!r} holds {n_values} {kind} value(s); it must be one int64 class id</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{where}: label {y} is not a class id below data.num_classes = {num_classes}; raise num_classes or fix the labels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{where}: feature {features_key!r} holds {kind} values, the description says float (set data.feature_type to image for encoded images)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{where}: feature {features_key!r} has {n_values} values; feature_shape {shape} needs {math}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{where}: feature {features_key!r} holds {kind} values, not one encoded image (set data.feature_type to float for a list of numbers)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{where}: an image feature needs feature_shape [height, width, channels], not {shape}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{where}: feature {key!r} is not an encoded image ({exc})</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{where}: image mode {mode} cannot become {shape} channels</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>a function name, e.g. {example}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no such file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} {error}</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>{name} defines no function {function!r} at top level (it defines: {defined}); expected {contracts}</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
