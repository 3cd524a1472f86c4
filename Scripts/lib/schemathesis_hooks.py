"""Schemathesis hooks for Focal's document (Scripts/lib/schemathesis.sh): op-log bodies
(application/x-ndjson, application/jsonl) are text, sent as UTF-8 bytes."""
import schemathesis


@schemathesis.serializer("application/x-ndjson", "application/jsonl")
def ndjson(ctx, value):
    if isinstance(value, bytes):
        return value
    return str(value).encode("utf-8")
