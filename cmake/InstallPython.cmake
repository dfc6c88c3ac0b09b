# Python custom ops (README.md "Python custom ops"): the bridge library beside libgert.so (the
# embedder finds it there and the packages in ../python/site-packages), GE's Python packages and pyACL's subset (acl).
install(TARGETS openatc_py_bridge LIBRARY DESTINATION lib64)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/python/ge ${PROJECT_SOURCE_DIR}/python/acl DESTINATION python/site-packages
        PATTERN __pycache__ EXCLUDE PATTERN "*.pyc" EXCLUDE)
