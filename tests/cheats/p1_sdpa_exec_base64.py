"""Red team (issue 27 S3): P1's forbidden call in source decoded from base64 and exec'd at import: no name for the scan to fold."""
import base64

exec(base64.b64decode("aW1wb3J0IHRvcmNoLm5uLmZ1bmN0aW9uYWwgYXMgRgpkZWYgY2F1c2FsX2F0dGVudGlvbihxLCBrLCB2KToKICAgIHJldHVybiBGLnNjYWxlZF9kb3RfcHJvZHVjdF9hdHRlbnRpb24ocSwgaywgdiwgaXNfY2F1c2FsPVRydWUpCg==").decode())
