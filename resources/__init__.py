"""Files shipped with the dashboard, installed as the package `tfdd_resources`.

Not code: icons, the style sheet, the standalone script template, example
configs and translations. Find them with `engine.core.resources.resource_path`.
"""
