"""WarpDrill as an LTI 1.3 tool (pylti1p3): launches from an LMS into a course, problem set or exam, and
Assignment and Grade Services that send scores back. docs/lti.md tells how to register it."""
