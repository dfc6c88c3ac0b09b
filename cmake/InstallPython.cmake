# Python custom ops (README.md "Python custom ops"): the bridge library beside libgert.so (the
# embedder finds it there and the packages in ../python/site-packages), and GE's Python packages.
install(TARGETS openatc_py_bridge LIBRARY DESTINATION lib64)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/ge DESTINATION python/site-packages
        PATTERN __pycache__ EXCLUDE PATTERN "*.pyc" EXCLUDE)
