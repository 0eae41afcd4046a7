<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>ClusterEditor</name>
    <message numerus="yes">
        <source>%n error(s)</source>
        <translation>
            <numerusform>%n error</numerusform>
            <numerusform>%n errors</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>, %n warning(s)</source>
        <translation>
            <numerusform>, %n warning</numerusform>
            <numerusform>, %n warnings</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ClusterExportDialog</name>
    <message numerus="yes">
        <source>Writes what the %n task(s) of the Cluster tab need, with the run form&apos;s config ({strategy}, {epochs} epochs, global batch {global_batch_size}). Every task runs the same train command; its TF_CONFIG says what it is.</source>
        <translation>
            <numerusform>Writes what the %n task of the Cluster tab needs, with the run form&apos;s config ({strategy}, {epochs} epochs, global batch {global_batch_size}). Every task runs the same train command; its TF_CONFIG says what it is.</numerusform>
            <numerusform>Writes what the %n tasks of the Cluster tab need, with the run form&apos;s config ({strategy}, {epochs} epochs, global batch {global_batch_size}). Every task runs the same train command; its TF_CONFIG says what it is.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Wrote %n file(s) to {out}. Next: {what} (README.md):</source>
        <translation>
            <numerusform>Wrote %n file to {out}. Next: {what} (README.md):</numerusform>
            <numerusform>Wrote %n files to {out}. Next: {what} (README.md):</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ComparePlots</name>
    <message numerus="yes">
        <source>showing {shown} of %n selected run(s)</source>
        <translation>
            <numerusform>showing {shown} of %n selected run</numerusform>
            <numerusform>showing {shown} of %n selected runs</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DataPreview</name>
    <message numerus="yes">
        <source> · %n files</source>
        <translation>
            <numerusform> · %n files</numerusform>
            <numerusform> · %n files</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DataSourceForm</name>
    <message numerus="yes">
        <source> → {resolved} with %n workers</source>
        <translation>
            <numerusform> → {resolved} with %n workers</numerusform>
            <numerusform> → {resolved} with %n workers</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>DevicesPanel</name>
    <message numerus="yes">
        <source>%n GPU(s)</source>
        <translation>
            <numerusform>%n GPU</numerusform>
            <numerusform>%n GPUs</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LogModel</name>
    <message numerus="yes">
        <source>   [%n raw line(s)]</source>
        <translation>
            <numerusform>   [%n raw line]</numerusform>
            <numerusform>   [%n raw lines]</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>LogView</name>
    <message numerus="yes">
        <source>{shown} of %n line(s)</source>
        <translation>
            <numerusform>{shown} of %n line</numerusform>
            <numerusform>{shown} of %n lines</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n line(s)</source>
        <translation>
            <numerusform>%n line</numerusform>
            <numerusform>%n lines</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message numerus="yes">
        <source>Fix %n problem(s) first ({fields}).</source>
        <translation>
            <numerusform>Fix %n problem first ({fields}).</numerusform>
            <numerusform>Fix %n problems first ({fields}).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>{path} has %n problem(s):</source>
        <translation>
            <numerusform>{path} has %n problem:</numerusform>
            <numerusform>{path} has %n problems:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> (it still has %n problem(s))</source>
        <translation>
            <numerusform> (it still has %n problem)</numerusform>
            <numerusform> (it still has %n problems)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RunForm</name>
    <message numerus="yes">
        <source>not divisible by %n replica(s)</source>
        <translation>
            <numerusform>not divisible by %n replica</numerusform>
            <numerusform>not divisible by %n replicas</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>= {per_replica} per replica × %n replica(s) per step; </source>
        <translation>
            <numerusform>= {per_replica} per replica × %n replica per step; </numerusform>
            <numerusform>= {per_replica} per replica × %n replicas per step; </numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n worker(s) take steps in turn</source>
        <translation>
            <numerusform>%n worker takes steps in turn</numerusform>
            <numerusform>%n workers take steps in turn</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>= {per_replica} per replica × %n replica(s)</source>
        <translation>
            <numerusform>= {per_replica} per replica × %n replica</numerusform>
            <numerusform>= {per_replica} per replica × %n replicas</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RunsPanel</name>
    <message numerus="yes">
        <source>%n run(s) in {root}</source>
        <translation>
            <numerusform>%n run in {root}</numerusform>
            <numerusform>%n runs in {root}</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> (and %n more)</source>
        <translation>
            <numerusform> (and %n more)</numerusform>
            <numerusform> (and %n more)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RunsTableModel</name>
    <message numerus="yes">
        <source>{name}: %n trial(s)</source>
        <translation>
            <numerusform>{name}: %n trial</numerusform>
            <numerusform>{name}: %n trials</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>ScalingDialog</name>
    <message numerus="yes">
        <source>training with %n worker(s)</source>
        <translation>
            <numerusform>training with %n worker</numerusform>
            <numerusform>training with %n workers</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>training with %n replica(s)</source>
        <translation>
            <numerusform>training with %n replica</numerusform>
            <numerusform>training with %n replicas</numerusform>
        </translation>
    </message>
</context>
</TS>
