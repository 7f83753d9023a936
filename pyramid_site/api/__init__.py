"""The API's shared plumbing: errors and their handler, request bodies and parameters, pagination,
token authentication and the schema's common parts."""
