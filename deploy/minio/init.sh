#!/bin/sh
# compose.yaml's minio-init job (docs/deploy.md#compose): the bucket, and the sites' own MinIO
# user allowed that bucket only (site-policy.json), so the sites never hold the root credentials.
# Runs at every `docker compose up`; each step leaves what is already there as it is.
set -eu
mc alias set store http://minio:9000 "$MINIO_ROOT_USER" "$MINIO_ROOT_PASSWORD"
mc mb --ignore-existing store/chat-site
# Creating a policy that exists replaces it, and adding a user that exists sets its secret key.
mc admin policy create store chat-site-objects /init/site-policy.json
mc admin user add store "$SITE_S3_ACCESS_KEY" "$SITE_S3_SECRET_KEY"
# Attaching a policy the user already has is an error to mc (exit 1, "The specified policy change
# is already in effect", or "no net effect" in some releases); that one alone is fine here.
if ! attached=$(mc admin policy attach store chat-site-objects --user "$SITE_S3_ACCESS_KEY" 2>&1); then
  case $attached in
    *"already in effect"* | *"no net effect"*) ;;
    *) echo "$attached" >&2; exit 1 ;;
  esac
fi
echo "bucket chat-site and user $SITE_S3_ACCESS_KEY ready"
