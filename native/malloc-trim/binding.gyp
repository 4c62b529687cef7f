{
  "targets": [
    {
      "target_name": "malloc_trim",
      "sources": ["malloc_trim.c", "heap_pressure.cc"],
      "cflags": ["-O2"]
    }
  ]
}
