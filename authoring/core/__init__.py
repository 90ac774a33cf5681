"""The plain-Python core of authoring: package archives, version diffs, editing problem.yaml's text."""
