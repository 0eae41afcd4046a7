"""The Cluster tab: the TF_CONFIG editor and the export of a cluster for other machines."""
